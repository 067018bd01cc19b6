// JSON errors carry a `kind` beside status, code and message (CLI.md "errors"),
// so a client-side refusal no longer shows `"code": null` alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommandSandbox, type CommandSandbox } from '../helpers/sandbox.js';

let sb: CommandSandbox;
beforeAll(async () => {
  sb = await startCommandSandbox();
});
afterAll(() => sb.stop());

describe('kind in the JSON error', () => {
  it('usage for a refused option, with the keys in a fixed order', async () => {
    const r = await sb.email(['campaigns', 'summary', 'not-a-uuid', '--json']);
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stderr).error;
    expect(Object.keys(error).slice(0, 4)).toEqual(['kind', 'status', 'code', 'message']);
    expect(error.kind).toBe('usage');
  });

  it('usage for an unknown option (commander refuses it)', async () => {
    const r = await sb.email(['campaigns', 'sent', '--nope', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.kind).toBe('usage');
  });

  it('auth for a refused key, service for a 404', async () => {
    const auth = await sb.email(['campaigns', 'sent', '--json'], { env: { EMAIL_API_KEY: 'wrong-key' } });
    expect(auth.code).toBe(4);
    expect(JSON.parse(auth.stderr).error).toMatchObject({ kind: 'auth', status: 401 });
    const missing = await sb.email(['api', '/email/nothing-here', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ kind: 'service', status: 404 });
  });

  it('network when nothing answers', async () => {
    const r = await sb.email(['campaigns', 'sent', '--json'], { env: { EMAIL_BASE_URL: 'http://127.0.0.1:9', EMAIL_RETRY_MAX_WAIT_MS: '0' } });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error.kind).toBe('network');
  });
});
