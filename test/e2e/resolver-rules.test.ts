// The resolver as `email help environment` and email(1) describe it
// (src/core/resolver-rules.ts): each rule's claim, run through bin/email
// against two sandboxes. A rule without a run here fails, so the text cannot
// say what the code does not do. They once said EMAIL_API_KEY was used only
// with EMAIL_BASE_URL and that a flag always wins over a variable.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig, type Profile } from '../../src/core/config.js';
import { RESOLVER_RULES } from '../../src/core/resolver-rules.js';
import { manPages, roff } from '../../src/help/man.js';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { serviceDir, spawnCli, tempConfigDir } from '../helpers/cli.js';

let here: RunningSandbox;
let there: RunningSandbox;
beforeAll(async () => {
  [here, there] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([here.stop(), there.stop()]);
});

const DEAD_URL = 'http://127.0.0.1:9';
const LIST = '11111111-1111-4111-8111-111111111111';
const READ = ['api', '/email/clients/scheduled', '--debug'];

async function configWith(profiles: Record<string, Profile>, defaultProfile = 'default'): Promise<string> {
  const dir = tempConfigDir();
  await (await openConfig({ EMAIL_CONFIG_DIR: dir })).write({ defaultProfile, profiles });
  return dir;
}
/** Where the key and the base URL came from, as --debug says it. */
const sources = (stderr: string) => /key from (.+); base URL (\S+) from (.+)$/m.exec(stderr)?.slice(1, 4);

const RUNS: Record<string, () => Promise<void>> = {
  'key-env': async () => {
    const dir = await configWith({ default: { baseUrl: here.url, apiKey: 'stored-key-0000' }, staging: { baseUrl: here.url, apiKey: 'stored-key-1111' } });
    for (const argv of [[], ['--profile', 'staging']]) {
      const r = await spawnCli([...READ, ...argv], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: here.apiKey, EMAIL_PROFILE: 'default' } });
      expect(r.code, r.stderr).toBe(0);
      expect(sources(r.stderr)?.[0]).toBe('env EMAIL_API_KEY');
    }
  },
  'key-profile': async () => {
    const dir = await configWith({ default: { baseUrl: here.url, apiKey: 'stored-key-0000' }, staging: { baseUrl: here.url, apiKey: here.apiKey } }, 'staging');
    for (const [argv, env] of [[['--profile', 'staging'], { EMAIL_PROFILE: 'default' }], [[], { EMAIL_PROFILE: 'staging' }], [[], {}]] as const) {
      const r = await spawnCli([...READ, ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(r.code, r.stderr).toBe(0);
      expect(sources(r.stderr)?.[0]).toMatch(/^profile "staging"/);
    }
  },
  'base-url': async () => {
    const flag = await spawnCli([...READ, '--base-url', here.url], { env: { EMAIL_API_KEY: here.apiKey, EMAIL_BASE_URL: DEAD_URL } });
    expect(flag.code, flag.stderr).toBe(0);
    expect(sources(flag.stderr)?.slice(1)).toEqual([here.url, '--base-url']);
    const variable = await spawnCli(READ, { env: { EMAIL_API_KEY: here.apiKey, EMAIL_BASE_URL: here.url } });
    expect(sources(variable.stderr)?.slice(1)).toEqual([here.url, 'env EMAIL_BASE_URL']);
    const dir = await configWith({ default: { baseUrl: here.url } });
    const alone = await spawnCli(READ, { env: { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: here.apiKey } });
    expect(alone.code, alone.stderr).toBe(0);
    expect(sources(alone.stderr)?.slice(1)).toEqual([here.url, 'profile "default"']);
  },
  'key-bound': async () => {
    const dir = await configWith({ default: { baseUrl: `${here.url}/`, apiKey: here.apiKey } });
    there.clearRequests();
    for (const [argv, env] of [[['--base-url', there.url], {}], [[], { EMAIL_BASE_URL: there.url }]] as const) {
      const r = await spawnCli([...READ, ...argv], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`stored for ${here.url}/, not for ${there.url}`);
    }
    expect(there.requestCount()).toBe(0);
    expect((await spawnCli([...READ, '--base-url', here.url.replace('http:', 'HTTP:')], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
    const chosen = await spawnCli([...READ, '--base-url', there.url], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: there.apiKey } });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(there.requestCount()).toBe(1);
  },
  'no-profile': async () => {
    const dir = await configWith({ default: { baseUrl: here.url, apiKey: here.apiKey } });
    const typo = await spawnCli([...READ, '--profile', 'nope'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/profiles: default$/m);
    const none = await spawnCli([...READ, '--profile', 'nope'], { env: { EMAIL_CONFIG_DIR: tempConfigDir() } });
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('email auth login --profile nope');
    expect((await spawnCli(READ, { env: { EMAIL_CONFIG_DIR: tempConfigDir() } })).code).toBe(4);
  },
  defaults: async () => {
    const dir = await serviceDir(here.url);
    expect((await spawnCli(['config', 'set', 'list', LIST], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
    const add = ['subscribers', 'add', '--email', 'rule@example.com', '--name', 'Rule', '--consent', 'yes'];
    const own = await spawnCli(add, { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: here.url, EMAIL_API_KEY: here.apiKey } });
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toContain('default list');
    const other = await spawnCli(add, { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: there.url, EMAIL_API_KEY: there.apiKey } });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--list is required/);
    const flag = await spawnCli([...add, '--base-url', there.url], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: there.apiKey } });
    expect(flag.code).toBe(2);
  },
  'config-read': async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{ not json', { mode: 0o600 });
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: here.url, EMAIL_API_KEY: here.apiKey };
    const read = await spawnCli(['campaigns', 'sent'], { env });
    expect(read.code, read.stderr).toBe(0);
    const needs = await spawnCli(['subscribers', 'add', '--email', 'rule@example.com', '--name', 'Rule', '--consent', 'yes'], { env });
    expect(needs.code).toBe(2);
    expect(needs.stderr).toMatch(/config\.json is not valid JSON/);
    // With the key to come from it, the file is needed: exit 2 naming it.
    const keyed = await spawnCli(['campaigns', 'sent'], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: here.url } });
    expect(keyed.code).toBe(2);
  },
  'config-refused': async () => {
    if (process.platform === 'win32') return;
    const dir = await configWith({ default: { baseUrl: here.url, apiKey: here.apiKey } });
    chmodSync(dir, 0o777);
    here.clearRequests();
    const r = await spawnCli(READ, { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to use it/);
    expect(here.requestCount()).toBe(0);
  },
  completion: async () => {
    const dir = await configWith({ default: { baseUrl: here.url, apiKey: here.apiKey } });
    there.clearRequests();
    const r = await spawnCli(['__ids', 'campaign', '--base-url', there.url], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toBe('');
    expect(there.requestCount()).toBe(0);
  },
};

describe('every rule `email help environment` states holds through bin/email', () => {
  it('each rule has a run, and each run a rule', () => {
    expect(Object.keys(RUNS).sort()).toEqual(RESOLVER_RULES.map((r) => r.id).sort());
  });

  for (const rule of RESOLVER_RULES) {
    it(`${rule.id}: ${rule.says}`, async () => {
      const run = RUNS[rule.id];
      expect(run, `no run for rule ${rule.id}`).toBeDefined();
      await run!();
    });
  }

  it('help environment and email(1) print each rule', async () => {
    const help = (await spawnCli(['help', 'environment'])).stdout.replace(/\s+/g, ' ');
    const man = manPages(buildProgram(await loadCommands()), await loadCommands()).find((p) => p.file === 'email.1')!.text;
    for (const rule of RESOLVER_RULES) {
      expect(help).toContain(rule.says);
      expect(man).toContain(roff(rule.says));
    }
    expect(help).not.toMatch(/flag on the command line always wins|neither half alone is used|not opened at all/);
  });
});
