// An ApiClient on a running sandbox, retrying at once (no backoff to wait
// out), for the tests of src/api/: what each call sends is read back from
// the sandbox's recorded requests.
import { afterEach, beforeEach } from 'vitest';
import { ApiClient } from '../../src/core/http.js';
import type { RecordedRequest } from '../../src/sandbox/index.js';
import { useRunningSandbox } from './sandbox.js';

export function useApiSandbox() {
  const sandbox = useRunningSandbox({}, 'all');
  let client: ApiClient | undefined;
  beforeEach(() => {
    client = new ApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: { baseDelayMs: 1, random: () => 0.5 } });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  return {
    sandbox,
    client: () => client!,
    /** The requests `call` sent, as method, path, query and body. */
    async sent<T>(call: (client: ApiClient) => Promise<T>): Promise<{ answer: T | undefined; error: unknown; requests: Pick<RecordedRequest, 'method' | 'path' | 'query' | 'body' | 'status'>[] }> {
      const before = sandbox.requestCount();
      let answer: T | undefined;
      let error: unknown;
      try {
        answer = await call(client!);
      } catch (e) {
        error = e;
      }
      const count = sandbox.requestCount() - before;
      const requests = (count ? sandbox.requests.slice(-count) : []).map(({ method, path, query, body, status }) => ({ method, path, query, body, status }));
      return { answer, error, requests };
    },
  };
}
