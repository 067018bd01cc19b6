// End to end through bin/email, as a CI script runs it: exit codes, the key
// never shown, auth profiles on disk, and the raw `api` command.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { maskKey } from '../../src/core/redact.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
});
afterAll(async () => {
  await sandbox.stop();
});

describe('program', () => {
  it('--help lists every group and the exit codes', async () => {
    const r = await spawnCli(['--help']);
    expect(r.code).toBe(0);
    for (const group of ['auth', 'subscribers', 'customfields', 'segments', 'campaigns', 'templates', 'transactional', 'webhooks', 'api', 'sandbox', 'doctor', 'completion']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${group}\\b`, 'm'));
    }
    expect(r.stdout).toContain('Exit codes:');
    expect(r.stdout).toMatch(/^\s+130\s+interrupted/m);
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const r = await spawnCli([flag]);
      expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    }
  });

  it('every command has help with an example', async () => {
    const root = await spawnCli(['--help']);
    // The groups of the Commands section: the help topics listed after it are no commands.
    const commands = /^Commands:\n([\s\S]*?)\n\n/m.exec(root.stdout)![1]!;
    const groups = [...commands.matchAll(/^  ([a-z]+)\b/gm)].map((m) => m[1]!).filter((g) => g !== 'help');
    expect(groups).toContain('config');
    for (const group of groups) {
      const g = await spawnCli([group, '--help']);
      expect(g.code, group).toBe(0);
      const subs = [...g.stdout.matchAll(/^Commands:\n([\s\S]*?)(?:\n\n|$)/gm)].flatMap((m) => [...m[1]!.matchAll(/^  ([a-z-]+)\b/gm)].map((x) => x[1]!)).filter((s) => s !== 'help');
      for (const cmd of subs.length ? subs.map((s) => [group, s]) : [[group]]) {
        const h = await spawnCli([...cmd, '--help']);
        expect(h.stdout, cmd.join(' ')).toMatch(/Examples:\n\s+\$ email /);
        expect(h.stdout, cmd.join(' ')).toContain('Global Options:');
      }
    }
  }, 120_000);

  it('a group without a subcommand shows its help; an unknown subcommand is named, with a suggestion (exit 2)', async () => {
    const bare = await spawnCli(['campaigns']);
    expect(bare.code).toBe(0);
    expect(bare.stderr).toMatch(/^Usage: email campaigns \[options\] \[command\]/);
    expect(bare.stderr).toContain('unsubscribes [options]');
    const unknown = await spawnCli(['campaigns', 'sen']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("error: unknown command 'sen'\n(Did you mean sent?)\n");
    const other = await spawnCli(['campaigns', 'list']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^error: unknown command 'list'/);
  });

  it('a command that stops without finishing (a bug) exits 1 with an error, never 0', async () => {
    // A preload makes reading the -d @file hang forever with nothing left for
    // node to do: without the guard in main() node would exit 0 silently.
    const hang = [
      "import { syncBuiltinESMExports } from 'node:module';",
      "import fs from 'node:fs';",
      'const open = fs.open;',
      // The callback of opening body.json never comes (src/core/bounded-read.ts opens with fs.open).
      "fs.open = (path, ...rest) => (String(path).endsWith('body.json') ? undefined : open(path, ...rest));",
      'syncBuiltinESMExports();',
    ].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'email-hang-'));
    writeFileSync(join(dir, 'body.json'), '{}');
    const r = await spawnCli(['api', '/email/clients/scheduled', '-X', 'POST', '-d', '@body.json'], {
      env: { ...env, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(hang)}` },
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the command stopped without finishing/m);
    expect(r.stdout).toBe('');
  });

  it('a usage error exits 2, names the problem, and sends nothing', async () => {
    sandbox.clearRequests();
    const unknown = await spawnCli(['campaigns', 'summary', '--campaign', 'c', '--campagin', 'x'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown option '--campagin'/m);
    const missing = await spawnCli(['campaigns', 'summary'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: --campaign is required: campaign id (or give it as the first argument)\n');
    const badFormat = await spawnCli(['api', '/email/clients/scheduled', '-o', 'xml'], { env });
    expect(badFormat.code).toBe(2);
    expect(sandbox.requestCount()).toBe(0);
  });

  it('global options work before and after the subcommand', async () => {
    const before = await spawnCli(['--json', 'api', '/email/clients/listsforemail', '--query', 'email=nobody@example.com'], { env });
    const after = await spawnCli(['api', '/email/clients/listsforemail', '--query', 'email=nobody@example.com', '--json'], { env });
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });

  it('-q is --quiet on every command, email api included (its query flag is --query)', async () => {
    const r = await spawnCli(['api', '/email/clients/scheduled', '-q'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });

  it('choices match without regard to case everywhere: -o JSON as --type text', async () => {
    const r = await spawnCli(['campaigns', 'sent', '-o', 'JSON'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });
});

describe('authentication', () => {
  it('a 401 exits 4 with a hint and never prints the key, even with --debug', async () => {
    const key = 'wrong-key-that-must-stay-secret';
    const r = await spawnCli(['api', '/email/clients/scheduled', '--debug'], { env: { ...env, EMAIL_API_KEY: key } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: .*\(HTTP 401\)$/m);
    expect(r.stderr).toContain('hint: The key from EMAIL_API_KEY was refused');
    expect(r.stderr).toContain('Bearer ***');
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it('a 401 in JSON mode is one JSON object on stderr', async () => {
    const r = await spawnCli(['api', '/email/clients/scheduled', '--json'], { env: { ...env, EMAIL_API_KEY: 'nope-nope' } });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ error: { status: 401 } });
  });

  it('no key configured exits 4 and says how to log in', async () => {
    const r = await spawnCli(['api', '/email/clients/scheduled'], { env: {} });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no API key for profile "default"');
    expect(r.stderr).toContain('email auth login');
  });

  it('login --with-key stores a 0600 profile, status masks it, switch and logout work', async () => {
    const dir = tempConfigDir();
    const cfg = { EMAIL_CONFIG_DIR: dir };
    const login = await spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: cfg, stdin: `${sandbox.apiKey}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('Logged in for profile "default"');
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const second = await spawnCli(['auth', 'login', '--profile', 'other', '--base-url', sandbox.url, '--with-key'], { env: cfg, stdin: sandbox.apiKey });
    expect(second.code).toBe(0);

    const status = await spawnCli(['auth', 'status', '--json'], { env: cfg });
    expect(status.code, status.stderr).toBe(0);
    const rows = JSON.parse(status.stdout);
    expect(rows).toEqual([
      expect.objectContaining({ profile: 'default', default: true, inEffect: true, check: 'valid', key: maskKey(sandbox.apiKey) }), // '***ey': at most a quarter of an 11-character key
      expect.objectContaining({ profile: 'other', default: false, inEffect: false }),
    ]);
    expect(status.stdout).not.toContain(sandbox.apiKey);

    expect((await spawnCli(['auth', 'switch', 'other'], { env: cfg })).code).toBe(0);
    const afterSwitch = JSON.parse((await spawnCli(['auth', 'status', '--json'], { env: cfg })).stdout);
    expect(afterSwitch.find((r: { profile: string }) => r.profile === 'other').default).toBe(true);

    const unknown = await spawnCli(['auth', 'switch', 'nope'], { env: cfg });
    expect(unknown.code).toBe(2);

    expect((await spawnCli(['auth', 'logout', '--profile', 'other'], { env: cfg })).code).toBe(0);
    const left = JSON.parse((await spawnCli(['auth', 'status', '--json'], { env: cfg })).stdout);
    expect(left.map((r: { profile: string }) => r.profile)).toEqual(['default']);
  });

  it('login refuses a key the service rejects and stores nothing', async () => {
    const dir = tempConfigDir();
    const r = await spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir }, stdin: 'bad-key-1234' });
    expect(r.code).toBe(4);
    const status = await spawnCli(['auth', 'status', '--json'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(JSON.parse(status.stdout)).toEqual([]);
  });

  it('refuses plain http to a non-loopback host unless --insecure-http', async () => {
    sandbox.clearRequests();
    const r = await spawnCli(['api', '/email/clients/scheduled', '--base-url', 'http://api.example.com'], { env: { EMAIL_API_KEY: 'k-123456' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refusing plain http://');
    const login = await spawnCli(['auth', 'login', '--base-url', 'http://api.example.com', '--with-key'], { stdin: 'k-123456' });
    expect(login.code).toBe(2);
  });
});

describe('email api', () => {
  it('GETs with query parameters and prints JSON', async () => {
    sandbox.clearRequests();
    const campaign = sandbox.seed.campaigns.find((c) => c.Status === 'Sent')!;
    const r = await spawnCli(['api', `/email/campaigns/${campaign.CampaignID}/unsubscribes`, '--query', 'pagesize=10', '--query', 'orderfield=email'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ PageSize: 10, ResultsOrderedBy: 'email' });
    expect(sandbox.requests.at(-1)).toMatchObject({ method: 'GET', query: { pagesize: '10', orderfield: 'email' } });
  });

  it('POSTs a body from @file and from stdin', async () => {
    const list = sandbox.seed.lists[0]!.ListID;
    const dir = mkdtempSync(join(tmpdir(), 'email-api-'));
    writeFileSync(join(dir, 'seg.json'), JSON.stringify({ Title: 'From a file' }));
    const fromFile = await spawnCli(['api', '-X', 'POST', `/email/segments/${list}`, '-d', '@seg.json'], { env, cwd: dir });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(typeof JSON.parse(fromFile.stdout)).toBe('string');
    const fromStdin = await spawnCli(['api', `/email/segments/${list}`, '-d', '@-'], { env, stdin: '{"Title":"From stdin"}' });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(sandbox.requests.at(-1)).toMatchObject({ method: 'POST', body: { Title: 'From stdin' } });
  });

  it('refuses invalid JSON before sending, naming the position', async () => {
    sandbox.clearRequests();
    const r = await spawnCli(['api', '/email/segments/x', '-d', '{"Title": }'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: -d/--data is not valid JSON (line 1, column 11: unexpected "}")\n');
    expect(sandbox.requestCount()).toBe(0);
  });

  it('surfaces a coded service error with its code and exit 1', async () => {
    const list = sandbox.seed.lists[0]!.ListID;
    const r = await spawnCli(['api', '-X', 'POST', `/email/segments/${list}`, '-d', '{"Title":""}'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 273: /m);
  });
});
