// The profile's stored pager (`email config set pager`) on a real terminal:
// bin/email runs on a pty against the sandbox, with a recording pager
// (test/helpers/terminal.ts).
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { onTerminal, recorder } from '../helpers/terminal.js';

const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const TALL = ['campaigns', 'unsubscribes', CAMPAIGN, '--page-size', '50'];
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());


describe("the profile's pager", () => {
  it('pages through the stored pager; EMAIL_PAGER and PAGER win over it; "none" turns paging off', async () => {
    const dir = tempConfigDir();
    const stored = recorder();
    expect((await spawnCli(['config', 'set', 'pager', stored.command], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
    const paged = await onTerminal(sandbox, TALL, { EMAIL_CONFIG_DIR: dir });
    expect(paged.code, paged.screen).toBe(0);
    expect(readFileSync(stored.file, 'utf8').match(/^│ \S+@\S+ /gm)).toHaveLength(50);

    for (const variable of ['EMAIL_PAGER', 'PAGER']) {
      const before = recorder();
      const winner = recorder();
      expect((await spawnCli(['config', 'set', 'pager', before.command], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
      const r = await onTerminal(sandbox, TALL, { EMAIL_CONFIG_DIR: dir, [variable]: winner.command });
      expect(r.code, r.screen).toBe(0);
      expect(existsSync(winner.file), variable).toBe(true);
      expect(existsSync(before.file), variable).toBe(false);
    }

    expect((await spawnCli(['config', 'set', 'pager', 'none'], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
    const off = await onTerminal(sandbox, TALL, { EMAIL_CONFIG_DIR: dir });
    expect(off.code).toBe(0);
    expect(off.screen.match(/^│ \S+@\S+ /gm)).toHaveLength(50);
  });
});
