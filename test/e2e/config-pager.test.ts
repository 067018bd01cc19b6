// The profile's stored pager (`email config set pager`) on a real terminal:
// bin/email runs on a pty against the sandbox, with a recording pager
// (test/helpers/terminal.ts).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { serviceDir, spawnCli } from '../helpers/cli.js';
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
    const dir = await serviceDir(sandbox.url);
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

describe('a stored output format at a terminal', () => {
  it('sets stdout\'s format only: a mistake reads as words on stderr, not as a JSON object; a typed --json still makes it one', async () => {
    const dir = await serviceDir(sandbox.url);
    expect((await spawnCli(['config', 'set', 'output', 'json'], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
    const missing = ['campaigns', 'summary', '00000000-0000-4000-8000-000000000000'];
    const stored = await onTerminal(sandbox, missing, { EMAIL_CONFIG_DIR: dir });
    expect(stored.code, stored.screen).toBe(1);
    expect(stored.screen).toMatch(/^error: /m);
    expect(stored.screen).not.toContain('"type":"error"');
    const listed = await onTerminal(sandbox, ['campaigns', 'sent', '--limit', '1'], { EMAIL_CONFIG_DIR: dir });
    expect(listed.screen).toMatch(/^\[/m);
    const typed = await onTerminal(sandbox, [...missing, '--json'], { EMAIL_CONFIG_DIR: dir });
    expect(typed.screen).toContain('"type":"error"');
  });
});

describe('a stored pager of another service', () => {
  it('is not run for a script whose EMAIL_BASE_URL names another service', async () => {
    const other = await startSandbox({ port: 0 });
    try {
      const dir = await serviceDir(sandbox.url);
      const theirs = recorder();
      expect((await spawnCli(['config', 'set', 'pager', theirs.command], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
      const unset = await onTerminal(other, TALL, { EMAIL_CONFIG_DIR: dir, PATH: `${fakeLess()}:${process.env.PATH}` });
      expect(unset.code, unset.screen).toBe(0);
      expect(existsSync(theirs.file)).toBe(false);
    } finally {
      await other.stop();
    }
  });
});

/** A directory holding a `less` (the default pager) that prints what it reads without waiting for keys. */
function fakeLess(): string {
  const bin = mkdtempSync(join(tmpdir(), 'email-less-'));
  writeFileSync(join(bin, 'less'), '#!/bin/sh\ncat\n', { mode: 0o755 });
  return bin;
}
