// An id as 32 hex digits, in any letter case, works end to end through
// bin/email against the sandbox as the dashed form does (CLI.md "identifiers").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { SEED_CAMPAIGN_IDS } from '../../src/sandbox/seed-campaigns.js';
import { spawnCli } from '../helpers/cli.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
});
afterAll(async () => {
  await sandbox.stop();
});

describe('campaigns summary by an id without dashes', () => {
  it('gives the same summary as the dashed id, in lower and upper case', async () => {
    const dashed = await spawnCli(['campaigns', 'summary', SEED_CAMPAIGN_IDS.welcome, '--json'], { env });
    expect(dashed.code, dashed.stderr).toBe(0);
    const hex = SEED_CAMPAIGN_IDS.welcome.replace(/-/g, '');
    for (const id of [hex, hex.toUpperCase()]) {
      const r = await spawnCli(['campaigns', 'summary', id, '--json'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(dashed.stdout));
    }
  });
});
