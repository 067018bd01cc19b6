// `email config get|set|unset|list` (CLI.md "help topics, config, pages"):
// per-profile defaults stored in the config file, each value checked before
// it is stored; bin/email with a config directory of the test's own.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { humanStderr, machineLines, serviceDir, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { useCleanups } from '../helpers/cleanups.js';
import { startScriptedReceiver } from '../helpers/webhooks.js';
import { decodeDelivery } from '../../src/webhooks/decode.js';

const LIST = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SEGMENT = '5e000000-0000-4000-8000-000000000001';
const cleanups = useCleanups();

describe('email config', () => {
  it('set, get, list and unset a profile\'s defaults, stored in the profile in effect', async () => {
    const dir = tempConfigDir();
    const env = { EMAIL_CONFIG_DIR: dir };
    expect((await spawnCli(['config', 'set', 'list', LIST.toUpperCase(), '--name', 'Newsletter'], { env })).code).toBe(0);
    expect((await spawnCli(['config', 'set', 'output', 'JSON'], { env })).code).toBe(0);
    expect((await spawnCli(['config', 'set', 'pager', 'less -R'], { env })).code).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(stored.profiles.default.defaults).toEqual({ list: LIST, listName: 'Newsletter', output: 'json', pager: 'less -R' });
    const got = await spawnCli(['config', 'get', 'list', '-o', 'table'], { env });
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toBe(`${LIST}\n`);
    const listed = await spawnCli(['config', 'list', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toEqual([
      { Key: 'list', Value: LIST, Name: 'Newsletter' },
      { Key: 'output', Value: 'json', Name: null },
      { Key: 'pager', Value: 'less -R', Name: null },
    ]);
    // A new list id forgets the name given with the old one.
    expect((await spawnCli(['config', 'set', 'list', LIST], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.defaults.listName).toBeUndefined();
    for (const key of ['list', 'output', 'pager']) expect((await spawnCli(['config', 'unset', key], { env })).code).toBe(0);
    const after = await spawnCli(['config', 'get', 'pager'], { env });
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
      [['config', 'set', 'colour', 'red'], /<key> must be one of list, output, pager \(got "colour"\)$/m],
      [['config', 'set', 'list', 'newsletter'], /list must be a list id \(a UUID\)/],
      [['config', 'set', 'output', 'yaml'], /output must be one of table, json, ndjson, csv/],
      [['config', 'set', 'pager', '  '], /pager must be a command/],
      [['config', 'set', 'output', 'json', '--name', 'x'], /--name names a list: it goes with `config set list <id>`/],
      [['config', 'set', 'list', LIST, '--name', ' '], /--name must not be blank/],
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

  it('a stored format that is not one says what it got once', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { defaults: { output: 'yaml', pager: ' ' } } } }), { mode: 0o600 });
    const r = await spawnCli(['config', 'list'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/profiles\.default\.defaults\.output: output must be one of table, json, ndjson, csv, got "yaml"$/m);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { defaults: { pager: ' ' } } } }), { mode: 0o600 });
    const pager = await spawnCli(['config', 'list'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(pager.stderr).toMatch(/profiles\.default\.defaults\.pager: pager must be a command \(e\.g\. "less -R"\), or none to turn paging off, got " "$/m);
  });
});

describe('the profile\'s default list', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.stop());

  it('a command without --list acts on the default list and names it on stderr; --list wins', async () => {
    const dir = await serviceDir(sandbox.url);
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    const missing = await spawnCli(['subscribers', 'add', '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--list is required/);
    expect((await spawnCli(['config', 'set', 'list', LIST], { env })).code).toBe(0);
    const r = await spawnCli(['subscribers', 'add', '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    // No name stored with it: the id, as before.
    expect(r.stderr).toContain(`list ${LIST} (profile "default"'s default list)`);
    const history = await spawnCli(['subscribers', 'history', '--email', 'ada@example.com', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    const other = await spawnCli(['subscribers', 'add', '--list', '22222222-2222-4222-8222-222222222222', '--email', 'bo@example.com', '--name', 'Bo', '--consent', 'yes'], { env });
    expect(other.stderr).not.toContain('default list');
  });

  it('names the default list by the name stored with it, in words that fit the command', async () => {
    const dir = await serviceDir(sandbox.url);
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    expect((await spawnCli(['config', 'set', 'list', LIST, '--name', 'Newsletter'], { env })).code).toBe(0);
    const added = await spawnCli(['subscribers', 'add', '--email', 'cy@example.com', '--name', 'Cy', '--consent', 'yes'], { env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(`into Newsletter (${LIST}, the profile's default list)`);
    const history = await spawnCli(['subscribers', 'history', '--email', 'cy@example.com', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    // Machine mode: the notice carries the id and the name as fields.
    const notice = machineLines(history.stderr).find((l) => l.type === 'notice' && l.message.includes('default list'));
    expect(notice).toMatchObject({ message: `on Newsletter (${LIST}, the profile's default list)`, list: LIST, listName: 'Newsletter' });
  });

  it('campaigns create targets the default list when given neither --list nor --segment', async () => {
    const dir = await serviceDir(sandbox.url);
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    expect((await spawnCli(['config', 'set', 'list', OTHER, '--name', 'Customers'], { env })).code).toBe(0);
    const base = ['campaigns', 'create', '--subject', 'News', '--from-name', 'Ada', '--from-email', 'ada@example.com', '--reply-to', 'ada@example.com', '--html-url', 'https://example.com/a.html'];
    const r = await spawnCli([...base, '--name', 'Default list campaign', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual([OTHER]);
    expect(humanStderr(r.stderr)).toContain(`for Customers (${OTHER}, the profile's default list)`);
    // A --list given, or a --segment, and the default is not used.
    const given = await spawnCli([...base, '--name', 'Given list campaign', '--list', LIST, '--json'], { env });
    expect(given.code, given.stderr).toBe(0);
    expect(Object.keys(JSON.parse(given.stdout))).toEqual([LIST]);
    expect(given.stderr).not.toContain('default list');
    const segment = await spawnCli([...base, '--name', 'Segment campaign', '--segment', SEGMENT, '--json'], { env });
    expect(segment.stderr).not.toContain('default list');
  });

  it('webhooks trigger puts the default list in its deliveries, a random id only without one, and its help says both', async () => {
    const help = await spawnCli(['webhooks', 'trigger', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("--list <id> ListID to put in the deliveries (default: the profile's default list, else a random id)");
    const receiver = await startScriptedReceiver(cleanups);
    const listIds = () => receiver.requests.splice(0).map((req) => decodeDelivery(req.body, req.contentType).delivery.ListID);
    const env = { EMAIL_CONFIG_DIR: tempConfigDir() };
    const trigger = (...more: string[]) => spawnCli(['webhooks', 'trigger', '--to', receiver.url, ...more], { env });
    expect((await trigger()).code).toBe(0);
    const random = listIds();
    expect(random).toHaveLength(1);
    expect(random[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(random[0]).not.toBe(LIST);
    expect((await spawnCli(['config', 'set', 'list', LIST, '--name', 'Newsletter'], { env })).code).toBe(0);
    const stored = await trigger();
    expect(stored.code, stored.stderr).toBe(0);
    expect(listIds()).toEqual([LIST]);
    expect(stored.stderr).toContain(`on Newsletter (${LIST}, the profile's default list)`);
    const given = await trigger('--list', OTHER);
    expect(listIds()).toEqual([OTHER]);
    expect(given.stderr).not.toContain('default list');
  });

  it('a stored output format is used when neither -o nor --json is given, machine mode included; a flag wins', async () => {
    const dir = await serviceDir(sandbox.url);
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    expect((await spawnCli(['config', 'set', 'output', 'json'], { env })).code).toBe(0);
    const json = await spawnCli(['campaigns', 'sent'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(json.stdout))).toBe(true);
    const csv = await spawnCli(['campaigns', 'sent', '-o', 'csv'], { env });
    expect(csv.stdout.split('\n')[0]).toMatch(/^CampaignID,/);
    const table = await spawnCli(['campaigns', 'sent', '--output', 'table'], { env });
    expect(table.stdout.split('\n')[0]).toMatch(/\t/);
    // A failure is the JSON error object on stderr, as under --json: from the service, and from commander's own parse.
    for (const argv of [['campaigns', 'summary', '00000000-0000-4000-8000-000000000000'], ['campaigns', 'sent', '--bogus']]) {
      const failed = await spawnCli(argv, { env });
      expect(failed.code, argv.join(' ')).not.toBe(0);
      expect(machineLines(failed.stderr).at(-1)?.error, failed.stderr).toBeDefined();
    }
    // --jq prints jq's results: a stored csv does not make it a usage error.
    expect((await spawnCli(['config', 'set', 'output', 'csv'], { env })).code).toBe(0);
    const jq = await spawnCli(['campaigns', 'sent', '--jq', 'length'], { env });
    expect(jq.code, jq.stderr).toBe(0);
    expect(jq.stdout).toMatch(/^\d+\n$/);
  });

  it('defaults stay with their service: a script naming another service by EMAIL_BASE_URL + EMAIL_API_KEY gets none of them', async () => {
    const other = await startSandbox({ port: 0 });
    try {
      const away = { EMAIL_BASE_URL: other.url, EMAIL_API_KEY: other.apiKey };
      // A profile of this sandbox, and a profile with defaults but no service at all.
      for (const dir of [await serviceDir(sandbox.url), tempConfigDir()]) {
        for (const [key, value] of [['list', LIST], ['output', 'json']]) expect((await spawnCli(['config', 'set', key!, value!], { env: { EMAIL_CONFIG_DIR: dir } })).code).toBe(0);
        other.clearRequests();
        const add = await spawnCli(['subscribers', 'add', '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env: { EMAIL_CONFIG_DIR: dir, ...away } });
        expect(add.code, add.stderr).toBe(2);
        expect(add.stderr).toMatch(/--list is required/);
        expect(other.requestCount()).toBe(0);
        const sent = await spawnCli(['campaigns', 'sent'], { env: { EMAIL_CONFIG_DIR: dir, ...away } });
        expect(sent.code, sent.stderr).toBe(0);
        expect(sent.stdout.trimStart().startsWith('[')).toBe(false);
        const doctor = await spawnCli(['doctor', '--json'], { env: { EMAIL_CONFIG_DIR: dir, ...away } });
        const check = (JSON.parse(doctor.stdout) as { check: string; detail: string }[]).find((c) => c.check === 'defaults');
        expect(check?.detail).toMatch(/not used: the base URL in effect \(env EMAIL_BASE_URL\) is not the profile's/);
      }
    } finally {
      await other.stop();
    }
  });

  it('auth status and doctor show the profile\'s defaults', async () => {
    const dir = await serviceDir(sandbox.url);
    const env = { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    expect((await spawnCli(['config', 'set', 'list', LIST, '--name', 'Newsletter'], { env })).code).toBe(0);
    expect((await spawnCli(['config', 'set', 'pager', 'less -R'], { env })).code).toBe(0);
    const status = await spawnCli(['auth', 'status', '--json'], { env });
    const rows = JSON.parse(status.stdout) as { profile: string; defaults: unknown }[];
    expect(rows.find((r) => r.profile === 'default')?.defaults).toEqual({ list: LIST, listName: 'Newsletter', pager: 'less -R' });
    const people = await spawnCli(['auth', 'status'], { env });
    expect(people.stdout).toContain(`list Newsletter (${LIST}), pager less -R`);
    const doctor = await spawnCli(['doctor', '--json'], { env: { ...env, EMAIL_PAGER: 'more' } });
    const check = (JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[]).find((c) => c.check === 'defaults');
    expect(check, doctor.stdout).toMatchObject({ status: 'ok' });
    expect(check!.detail).toContain(`list Newsletter (${LIST})`);
    expect(check!.detail).toContain('pager less -R (EMAIL_PAGER wins over it)');
    const none = await spawnCli(['doctor', '--json'], { env: { ...env, EMAIL_CONFIG_DIR: tempConfigDir() } });
    const empty = (JSON.parse(none.stdout) as { check: string; detail: string }[]).find((c) => c.check === 'defaults');
    expect(empty?.detail).toMatch(/none stored/);
  });
});
