// The config file as bin/email meets it (CLI.md "config location": "The config
// file must be a regular file, not a link or a FIFO; a file of the wrong shape
// is exit 2 naming the field. Commands that only read never create the file.").
// A FIFO there once blocked `campaigns sent`, `auth status` and `doctor`
// until SIGKILL; a field of the wrong type was "unexpected internal error:
// t.trim is not a function"; a link was read and written through, and its
// target chmodded 0600.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.stop();
});

const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined };
const email = (dir: string, args: string[], stdin?: string) => spawnCli(args, { env: { EMAIL_CONFIG_DIR: dir, ...NO_BUS }, stdin, timeoutMs: 10_000 });

describe.skipIf(process.platform === 'win32')('a config.json that is not a regular file is refused, never waited on', () => {
  for (const args of [['campaigns', 'sent'], ['auth', 'status'], ['auth', 'login', '--base-url', 'http://127.0.0.1:9', '--with-key']]) {
    it(`a FIFO: ${args.slice(0, 2).join(' ')} is exit 2 naming the file, at once`, async () => {
      const dir = tempConfigDir();
      execFileSync('mkfifo', [join(dir, 'config.json')]);
      const r = await email(dir, args, 'key');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^error: the config file .*config\.json is a FIFO, not a regular file/);
    });
  }

  it('a FIFO: doctor fails its config check and goes on', async () => {
    const dir = tempConfigDir();
    execFileSync('mkfifo', [join(dir, 'config.json')]);
    const r = await email(dir, ['doctor', '--json']);
    const checks = Object.fromEntries((JSON.parse(r.stdout) as { check: string; status: string; detail: string }[]).map((c) => [c.check, c]));
    expect(checks['config file']).toMatchObject({ status: 'fail', detail: expect.stringContaining('is a FIFO, not a regular file') });
  });

  it('a symbolic link: a read is exit 2, and auth login neither writes through it nor chmods its target', async () => {
    const dir = tempConfigDir();
    const target = join(tempConfigDir(), 'elsewhere.json');
    const text = JSON.stringify({ defaultProfile: 'default', profiles: { default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, keyStore: 'file' } } });
    writeFileSync(target, text);
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, 'config.json'));
    const read = await email(dir, ['campaigns', 'sent']);
    expect(read.code, read.stderr).toBe(2);
    expect(read.stderr).toMatch(/^error: the config file .*config\.json is a symbolic link/);
    const login = await email(dir, ['auth', 'login', '--base-url', sandbox.url, '--with-key', '--insecure-storage', '--profile', 'other'], sandbox.apiKey);
    expect(login.code, login.stderr).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe(text);
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });
});

describe('a config.json of the wrong shape is exit 2 naming the field', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a base URL that is a number', { defaultProfile: 'default', profiles: { default: { baseUrl: 4010, apiKey: 'k' } } }, /profiles\.default\.baseUrl: expected a string, got 4010/],
    ['a key that is an object', { profiles: { default: { baseUrl: 'http://127.0.0.1:9', apiKey: { k: 1 } } } }, /profiles\.default\.apiKey: expected a string/],
    ['profiles that are a list', { profiles: ['default'] }, /profiles: expected an object/],
    ['a default profile that is not a name', { defaultProfile: 7, profiles: {} }, /defaultProfile: expected a string, got 7/],
  ];
  for (const [name, content, field] of cases) {
    it(`${name}: campaigns sent and auth status say which field`, async () => {
      const dir = tempConfigDir();
      writeFileSync(join(dir, 'config.json'), JSON.stringify(content), { mode: 0o600 });
      for (const args of [['campaigns', 'sent'], ['auth', 'status']]) {
        const r = await email(dir, args);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/^error: the config file .*config\.json/);
        expect(r.stderr).toMatch(field);
        expect(r.stderr).not.toMatch(/internal error/);
      }
    });
  }

  it('a read with no config file creates none', async () => {
    const dir = tempConfigDir();
    await email(dir, ['campaigns', 'sent']);
    await email(dir, ['auth', 'status']);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});
