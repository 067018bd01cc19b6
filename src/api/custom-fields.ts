// service-spec.md "Custom fields".
import type { ApiClient } from '../core/http.js';
import { createCustomFieldResponse } from '../schemas/custom-fields.js';
import type { CustomFieldDefinition } from '../validation/custom-field-definition.js';

/** Never repeated automatically (CLI.md "retries"). */
export function createCustomField(client: ApiClient, listId: string, definition: CustomFieldDefinition): Promise<unknown> {
  return client.request({
    method: 'POST',
    path: `/email/lists/${encodeURIComponent(listId)}/customfields`,
    body: definition,
    schema: createCustomFieldResponse,
    idempotent: false,
  });
}
