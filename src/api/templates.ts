// service-spec.md "Templates".
import type { ApiClient } from '../core/http.js';
import { createTemplateResponse } from '../schemas/templates.js';
import type { TemplateRequest } from '../validation/campaign-fields.js';

/** POST /email/templates: 201 with the template id. A creation: never repeated automatically. */
export function createTemplate(client: ApiClient, body: TemplateRequest): Promise<string> {
  return client.request({ method: 'POST', path: '/email/templates', body, schema: createTemplateResponse, idempotent: false });
}
