// A config the tool refuses supplies nothing at all (CLI.md "credentials",
// "config location"): a directory another user owns or can write to, or a
// config file that is a link or that others can write to, gives no key, no
// base URL and no stored default: not the list a subscriber goes into, not
// the format, not the pager a terminal would run. It once gave all three,
// while refusing its keys.
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { onTerminal, recorder } from '../helpers/terminal.js';

const LIST = '11111111-1111-4111-8111-111111111111';
const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const TALL = ['campaigns', 'unsubscribes', CAMPAIGN, '--page-size', '50'];
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());

/** A config directory made unusable one way, holding a config.json with a list, a format and a pager. */
function refusedConfig(how: string, pager: string): string {
  const dir = join(tempConfigDir(), 'email-cli');
  mkdirSync(dir, { mode: 0o700 });
  const text = JSON.stringify({ defaultProfile: 'default', profiles: { default: { baseUrl: sandbox.url, defaults: { list: LIST, output: 'json', pager } } } });
  if (how === 'a link') {
    const elsewhere = join(tempConfigDir(), 'theirs.json');
    writeFileSync(elsewhere, text, { mode: 0o600 });
    symlinkSync(elsewhere, join(dir, 'config.json'));
    return dir;
  }
  writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
  if (how === 'a directory of mode 0777') chmodSync(dir, 0o777);
  if (how === 'a file others can write to') chmodSync(join(dir, 'config.json'), 0o666);
  if (how === 'a directory another user owns') chownSync(dir, 12345, 12345);
  return dir;
}

/** A PATH whose `less` (the default pager) prints what it reads and a line, without waiting for keys. */
function harmlessLess(): string {
  const bin = tempConfigDir();
  writeFileSync(join(bin, 'less'), '#!/bin/sh\ncat\necho paged by the default less\n', { mode: 0o755 });
  return `${bin}:${process.env.PATH}`;
}

const WAYS = ['a directory of mode 0777', 'a link', 'a file others can write to', ...(isRoot ? ['a directory another user owns'] : [])];
if (!isRoot) console.warn('not root: the case of a directory another user owns is skipped (it needs chown)');

describe.skipIf(process.platform === 'win32')('a refused config supplies nothing', () => {
  for (const how of WAYS) {
    it(`${how}: no default list, no stored format, and nothing sent`, async () => {
      const dir = refusedConfig(how, 'cat');
      const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
      sandbox.clearRequests();
      const add = await spawnCli(['subscribers', 'add', '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env });
      expect(add.code, add.stderr).toBe(2);
      expect(add.stderr).not.toContain('default list');
      expect(sandbox.requestCount()).toBe(0);
      const sent = await spawnCli(['campaigns', 'sent'], { env });
      expect(sent.code, sent.stderr).toBe(0);
      // Tab-separated lines, as without a stored format: not the refused file's json.
      expect(sent.stdout.trimStart().startsWith('[')).toBe(false);
    });

    it(`${how}: a tall output at a terminal does not run its pager`, async () => {
      const theirs = recorder();
      const dir = refusedConfig(how, theirs.command);
      const r = await onTerminal(sandbox, TALL, { EMAIL_CONFIG_DIR: dir, PATH: harmlessLess() });
      expect(r.code, r.screen).toBe(0);
      expect(existsSync(theirs.file)).toBe(false);
      expect(r.screen).toContain('paged by the default less');
    });
  }

  it('a directory of mode 0777: a command that needs it says why, and doctor fails its config check', async () => {
    const dir = refusedConfig('a directory of mode 0777', 'cat');
    const r = await spawnCli(['campaigns', 'sent'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the config directory .* is 0777: other users can write to it.*refusing to use it/m);
    const doctor = await spawnCli(['doctor', '--json'], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey } });
    const checks = Object.fromEntries((JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[]).map((c) => [c.check, c]));
    expect(checks['config file']).toMatchObject({ status: 'fail' });
    expect(checks.defaults).toMatchObject({ status: 'skip' });
  });
});
