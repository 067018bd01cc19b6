// The cheapest authenticated read the spec offers, used to check a key
// (auth login/status, doctor): the scheduled-campaigns list is usually short.
import type { ApiClient, RawResponse } from '../core/http.js';

export async function checkKey(client: ApiClient): Promise<RawResponse> {
  return client.send({ method: 'GET', path: '/email/clients/scheduled', idempotent: true });
}
