// Issue 13.2: a refused connection names the base URL in effect, where it came
// from, and points to `email doctor`.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openConfig } from '../../src/core/config.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('connection refused', () => {
  it('names the base URL from the environment and points to email doctor', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['campaigns', 'sent'], { env: { EMAIL_BASE_URL: url, EMAIL_API_KEY: 'k-12345678', EMAIL_RETRY_MAX_WAIT_MS: '0' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: GET \/email\/clients\/campaigns: connection refused/m);
    expect(r.stderr).toContain(`hint: nothing answered at ${url} (the base URL from env EMAIL_BASE_URL); \`email doctor\` checks the profile, the base URL and the connection`);
  });

  it('names the profile a base URL came from', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const dir = tempConfigDir();
    const store = await openConfig({ EMAIL_CONFIG_DIR: dir });
    await store.write({ defaultProfile: 'staging', profiles: { staging: { baseUrl: url, apiKey: 'k-12345678' } } });
    const r = await runCli(['campaigns', 'sent'], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_RETRY_MAX_WAIT_MS: '0' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`hint: nothing answered at ${url} (the base URL from profile "staging")`);
  });
});
