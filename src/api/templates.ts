// service-spec.md "Templates".
import type { ApiClient, WriteAnswer } from '../core/http.js';
import { createTemplateResponse } from '../schemas/templates.js';
import type { TemplateRequest } from '../validation/campaign-fields.js';

/** Never repeated; a 2xx that is not an id comes back as received. */
export function createTemplate(client: ApiClient, body: TemplateRequest): Promise<WriteAnswer<string>> {
  return client.write({ method: 'POST', path: '/email/templates', body, schema: createTemplateResponse, idempotent: false });
}
