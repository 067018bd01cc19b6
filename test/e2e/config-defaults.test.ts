// `email config get|set|unset|list` (CLI.md "help topics, config, pages"):
// per-profile defaults stored in the config file, each value checked before
// it is stored; bin/email with a config directory of the test's own.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';

const LIST = '11111111-1111-4111-8111-111111111111';

describe('email config', () => {
  it('set, get, list and unset a profile\'s defaults, stored in the profile in effect', async () => {
    const dir = tempConfigDir();
    const env = { EMAIL_CONFIG_DIR: dir };
    expect((await spawnCli(['config', 'set', 'list', LIST.toUpperCase()], { env })).code).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(stored.profiles.default.defaults).toEqual({ list: LIST });
    const got = await spawnCli(['config', 'get', 'list'], { env });
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toBe(`${LIST}\n`);
    const listed = await spawnCli(['config', 'list', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toEqual([{ Key: 'list', Value: LIST }]);
    expect((await spawnCli(['config', 'unset', 'list'], { env })).code).toBe(0);
    const after = await spawnCli(['config', 'get', 'list'], { env });
    expect(after.code).toBe(0);
    expect(after.stdout).toBe('');
    // Another profile has its own.
    const other = await spawnCli(['config', 'get', 'list', '--profile', 'staging'], { env });
    expect(other.stdout).toBe('');
  });

  it('refuses an unknown key or a bad value (exit 2), storing nothing', async () => {
    const dir = tempConfigDir();
    const env = { EMAIL_CONFIG_DIR: dir };
    const cases: [string[], RegExp][] = [
      [['config', 'set', 'colour', 'red'], /unknown setting "colour"; settings: list$/m],
      [['config', 'set', 'output', 'json'], /unknown setting "output"; settings: list$/m],
      [['config', 'set', 'list', 'newsletter'], /list must be a list id \(a UUID\)/],
    ];
    for (const [argv, message] of cases) {
      const r = await spawnCli(argv, { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });

  it('a stored default of the wrong shape is exit 2 naming the field', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { defaults: { list: 'newsletter' } } } }), { mode: 0o600 });
    const r = await spawnCli(['config', 'list'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/profiles\.default\.defaults\.list/);
  });
});

describe('the profile\'s default list', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.stop());

  it('a command without --list acts on the default list and names it on stderr; --list wins', async () => {
    const dir = tempConfigDir();
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    const missing = await spawnCli(['subscribers', 'add', '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--list is required/);
    expect((await spawnCli(['config', 'set', 'list', LIST], { env })).code).toBe(0);
    const r = await spawnCli(['subscribers', 'add', '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`list ${LIST} (profile "default"'s default list)`);
    const history = await spawnCli(['subscribers', 'history', '--email', 'ada@example.com', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    const other = await spawnCli(['subscribers', 'add', '--list', '22222222-2222-4222-8222-222222222222', '--email', 'bo@example.com', '--name', 'Bo', '--consent', 'yes'], { env });
    expect(other.stderr).not.toContain('default list');
  });
});
