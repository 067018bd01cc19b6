// checkKey (src/api/account.ts): the cheapest authenticated read, to check a key.
import { describe, expect, it } from 'vitest';
import { checkKey } from '../../src/api/account.js';
import { AuthError } from '../../src/core/errors.js';
import { ApiClient } from '../../src/core/http.js';
import { useApiSandbox } from '../helpers/api-client.js';

const api = useApiSandbox();

describe('checkKey', () => {
  it('reads the scheduled campaigns once with the key, and fails with AuthError for a wrong key', async () => {
    const ok = await api.sent((c) => checkKey(c));
    expect(ok.requests.map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/email/clients/scheduled', 200]]);
    expect(ok.answer?.status).toBe(200);
    const wrong = new ApiClient({ baseUrl: api.sandbox.url, apiKey: 'not-the-key' });
    try {
      await expect(checkKey(wrong)).rejects.toBeInstanceOf(AuthError);
    } finally {
      await wrong.close();
    }
  });
});
