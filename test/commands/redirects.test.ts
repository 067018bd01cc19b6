// CLI.md "redirects": a 3xx answer is never followed and is never success.
// A proxy, an http → https redirect or a wrong base-URL prefix answers every
// request with a redirect; whatever the command (a read, a change, a creation,
// a send, an import, a login), it must exit 1 naming the status and where it
// pointed, after exactly one request: not retried, not followed.
import { STATUS_CODES } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { rawControls } from '../helpers/hostile.js';
import { tempDir, writeFile } from '../helpers/import-files.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk_test_redirects';
const LIST = '0f8d8c1e9a4b4c5d8e7f6a5b4c3d2e1f';
const CAMPAIGN = '1a2b3c4d5e6f40718293a4b5c6d7e8f9';
const SEGMENT = '9e8d7c6b5a4f40312f1e0d9c8b7a6f5e';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(() => server.close());

const env = () => ({ EMAIL_BASE_URL: server.url, EMAIL_API_KEY: KEY });

/** One command of each kind; the import reads a two-row file from `cwd`. */
const COMMANDS: [kind: string, argv: string[]][] = [
  ['read', ['campaigns', 'sent']],
  ['read', ['subscribers', 'history', '--list', LIST, '--email', 'ada@example.com']],
  ['paged read', ['campaigns', 'unsubscribes', '--campaign', CAMPAIGN, '--all']],
  ['raw read', ['api', '/email/clients/scheduled']],
  ['change', ['campaigns', 'unschedule', '--campaign', CAMPAIGN, '--yes']],
  ['change', ['subscribers', 'update', '--list', LIST, '--email', 'ada@example.com', '--name', 'Ada L', '--consent', 'yes']],
  ['change', ['segments', 'clear-rules', '--segment', SEGMENT, '--yes']],
  ['creation', ['subscribers', 'add', '--list', LIST, '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes']],
  ['creation', ['segments', 'create', '--list', LIST, '--title', 'Pro']],
  [
    'creation',
    ['campaigns', 'create', '--name', 'June', '--subject', 'News', '--from-name', 'Ada', '--from-email', 'ada@example.com', '--reply-to', 'r@example.com', '--html-url', 'https://content.example.com/j.html', '--list', LIST],
  ],
  ['send', ['campaigns', 'preview', '--campaign', CAMPAIGN, '--to', 'ada@example.com']],
  ['import', ['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes']],
];

describe.each([301, 302, 303, 307, 308])('a %i to every request', (status) => {
  it.each(COMMANDS)('%s: email %j exits 1 naming the status and the Location, after one request', async (kind, argv) => {
    const cwd = tempDir();
    writeFile(cwd, 'people.csv', 'email,name\nada@example.com,Ada\nbo@example.com,Bo\n');
    const location = `${server.url}/login?next=%2Femail`;
    server.reply({ status, headers: { location }, body: '<html>Moved</html>' });
    const r = await runCli(argv, { env: env(), cwd });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${status} ${STATUS_CODES[status]}`);
    expect(r.stderr).toContain(`pointing to ${location}`);
    expect(r.stderr).toContain('nothing was followed');
    // Neither retried nor followed: the one scripted request, nothing to /login.
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.url).not.toMatch(/^\/login/);
    // No claim of work done on stdout; an import's summary says that nothing was.
    if (kind === 'import') expect(r.stdout).toMatch(/^New\t0\n[^]*^Not finished\t2 rows/m);
    else expect(r.stdout).toBe('');
  });
});

describe('what a redirect says', () => {
  it('a relative Location is named as the full address it points to', async () => {
    server.reply({ status: 302, headers: { location: '/sso/login' } });
    const r = await runCli(['campaigns', 'unschedule', '--campaign', CAMPAIGN, '--yes'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: the service answered 302 Found to POST /email/campaigns/`);
    expect(r.stderr).toContain(`pointing to ${server.url}/sso/login: a proxy or a wrong base URL, not a done operation (nothing was followed)`);
  });

  it('a redirect without a Location says so', async () => {
    server.reply({ status: 307 });
    const r = await runCli(['campaigns', 'preview', '--campaign', CAMPAIGN, '--to', 'ada@example.com'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('307 Temporary Redirect');
    expect(r.stderr).toContain('no Location');
    expect(r.stdout).toBe('');
  });

  it('a hostile Location reaches stderr neutralised, on one line', async () => {
    // What a header can carry past the HTTP parser: Latin-1 bytes, among them a C1 CSI
    // (U+009B) and the UTF-8 bytes of a right-to-left override read as Latin-1.
    const hostile = `https://evil.example/\u009b2J\u009b31mlogin${Buffer.from('\u202egnp.exe', 'utf8').toString('latin1')}`;
    server.reply({ status: 302, headers: { location: hostile } });
    const r = await runCli(['subscribers', 'add', '--list', LIST, '--email', 'ada@example.com', '--name', 'Ada', '--consent', 'yes'], { env: env() });
    expect(r.code).toBe(1);
    expect(rawControls(r.stderr), r.stderr).toEqual([]);
    expect(r.stderr).toContain('https://evil.example/\\x9b2J\\x9b31mlogin');
    expect(r.stderr.trimEnd().split('\n').filter((l) => l.startsWith('error'))).toHaveLength(1);
  });

  it('--json: kind "service", the status, and the Location in the message', async () => {
    server.reply({ status: 308, headers: { location: 'https://api.example.com/email/campaigns' } });
    const r = await runCli(['campaigns', 'sent', '--json'], { env: env() });
    expect(r.code).toBe(1);
    const { error } = JSON.parse(r.stderr.trim()) as { error: { kind: string; status: number; message: string } };
    expect(error).toMatchObject({ kind: 'service', status: 308 });
    expect(error.message).toContain('pointing to https://api.example.com/email/campaigns');
  });

  it('auth login stores nothing and suggests the address as --base-url', async () => {
    server.reply({ status: 301, headers: { location: 'https://api.example.com/' } });
    const dir = tempConfigDir();
    const r = await runCli(['auth', 'login', '--base-url', server.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir }, stdin: KEY });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('301 Moved Permanently');
    expect(r.stderr).toContain('pointing to https://api.example.com/');
    expect(r.stderr).toContain('nothing was stored');
    expect(r.stderr).toContain('--base-url');
    expect(server.calls).toHaveLength(1);
    const status = await runCli(['auth', 'status'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(status.stdout + status.stderr).not.toContain(server.url);
  });
});
