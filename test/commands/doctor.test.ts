// `email doctor`: each check's verdict and hint, --json, and the exit codes
// (0 with warnings, 1 when a check fails, 4 when the key is missing or refused).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClock, checkNode, MIN_NODE_VERSION } from '../../src/commands/doctor/checks.js';
import { openConfig } from '../../src/core/config.js';
import { maskKey } from '../../src/core/redact.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { useRunningSandbox } from '../helpers/sandbox.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const sandbox = useRunningSandbox({}, 'all');

interface Check {
  check: string;
  status: string;
  detail: string;
  hint?: string;
}
const byName = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as Check[]).map((c) => [c.check, c]));

async function storeProfiles(dir: string, profiles: Record<string, { baseUrl?: string; apiKey?: string }>, defaultProfile = 'default') {
  const store = await openConfig({ EMAIL_CONFIG_DIR: dir });
  await store.write({ defaultProfile, profiles });
  return store.path;
}

describe('email doctor', () => {
  it('colours each status where colour is on (FORCE_COLOR), and only the status; --no-color and a pipe get none', async () => {
    const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    const coloured = await runCli(['doctor'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(/^\x1b\[32mok  \x1b\[39m  config file: /m);
    const plain = await runCli(['doctor', '--no-color'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(plain.stdout).not.toContain('\x1b[');
    expect(plain.stdout).toMatch(/^ok {4}config file: /m);
    expect((await runCli(['doctor'], { env })).stdout).not.toContain('\x1b[');
  });

  it('passes every check against the sandbox, one line each, and exits 0', async () => {
    const r = await runCli(['doctor'], { env: { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey } });
    expect(r.code).toBe(0);
    // A check that is not ok carries a hint on the next line (a Node line past its end of life, when run on it).
    const lines = r.stdout.trim().split('\n').filter((l) => !l.startsWith('      hint: '));
    expect(lines.map((l) => /^(\w+)\s+([^:]+):/.exec(l)!.slice(1, 3))).toEqual([
      [checkNode(process.versions.node, new Date()).status, 'node'],
      ['ok', 'config file'],
      ['ok', 'profile'],
      ['ok', 'base URL'],
      ['ok', 'dns'],
      ['ok', 'tcp'],
      ['ok', 'tls'],
      ['ok', 'api key'],
      ['ok', 'clock'],
      ['ok', 'defaults'],
    ]);
    expect(r.stdout).toContain(`ok    base URL: ${sandbox.url} (from env EMAIL_BASE_URL)`);
    expect(r.stdout).toContain('ok    tls: plain http to loopback: ok');
    expect(r.stdout).not.toContain(sandbox.apiKey);
  });

  it('names the profile in effect, why, and where its base URL came from', async () => {
    const dir = tempConfigDir();
    await storeProfiles(dir, { default: { baseUrl: 'https://api.example.com', apiKey: 'k-default-1234' }, staging: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    const r = await runCli(['doctor', '--profile', 'staging', '--json'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    const checks = byName(r.stdout);
    expect(checks.profile).toMatchObject({ status: 'ok', detail: `"staging" (from --profile), key ${maskKey(sandbox.apiKey)} in ${join(dir, 'config.json')} (0600)` });
    expect(checks['base URL']).toMatchObject({ status: 'ok', detail: `${sandbox.url} (from profile "staging")` });
    expect(checks['config file']!.detail).toMatch(/\(file 0600, directory 0700; 2 profiles, default "default"\)$/);
  });

  it('fails a config file that other users can read, with the chmod to run, and exits 1', async () => {
    const dir = tempConfigDir();
    const path = await storeProfiles(dir, { default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    chmodSync(path, 0o644);
    chmodSync(dir, 0o755);
    const r = await runCli(['doctor'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^fail  config file: .*the file is 0644: other users can read the keys in it; the directory is 0755, not 0700$/m);
    expect(r.stdout).toContain(`      hint: chmod 600 '${path}'; chmod 700 '${dir}'`);
    // doctor reports and changes nothing
    const { statSync } = await import('node:fs');
    expect(statSync(path).mode & 0o777).toBe(0o644);
  });

  it('warns about a config directory open to others but still exits 0', async () => {
    const dir = tempConfigDir();
    await storeProfiles(dir, { default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } });
    chmodSync(dir, 0o750);
    const r = await runCli(['doctor'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^warn  config file: .*the directory is 0750, not 0700$/m);
  });

  it('fails a config directory others can write to, as every command refuses it, and changes nothing', async () => {
    const dir = tempConfigDir();
    chmodSync(dir, 0o1777);
    const r = await runCli(['doctor', '--json', '--base-url', sandbox.url], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(byName(r.stdout)['config file']).toMatchObject({ status: 'fail', detail: expect.stringMatching(/other users can write to it/), hint: expect.stringContaining(`chmod 700 '${dir}'`) });
    const { readdirSync, statSync } = await import('node:fs');
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails a config file that is not JSON', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{ not json', { mode: 0o600 });
    const r = await runCli(['doctor', '--json'], { env: { EMAIL_CONFIG_DIR: dir, EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey } });
    expect(r.code).toBe(1);
    expect(byName(r.stdout)['config file']).toMatchObject({ status: 'fail', hint: expect.stringContaining('email auth login') });
  });

  it('exits 4 with a hint when no key is configured, and still checks the network', async () => {
    const r = await runCli(['doctor', '--base-url', sandbox.url, '--json']);
    expect(r.code).toBe(4);
    const checks = byName(r.stdout);
    expect(checks.profile).toMatchObject({ status: 'fail', detail: 'no profile "default" (the default profile)', hint: expect.stringContaining('email auth login') });
    expect(checks.tcp!.status).toBe('ok');
    expect(checks['api key']!.status).toBe('fail');
  });

  it('exits 4 when the service refuses the key (401) and says so', async () => {
    const r = await runCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: 'not-the-key' } });
    expect(r.code).toBe(4);
    expect(byName(r.stdout)['api key']).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^refused \(401\)/), hint: expect.stringContaining('email auth login') });
  });

  it('exits 4 for a suspended account (403)', async () => {
    sandbox.suspendAccount(true);
    try {
      const r = await runCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey } });
      expect(r.code).toBe(4);
      expect(byName(r.stdout)['api key']).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^refused \(403\)/), hint: expect.stringContaining('suspended') });
    } finally {
      sandbox.suspendAccount(false);
    }
  });

  it('exits 1 when nothing listens at the base URL, skipping what depends on it', async () => {
    const server = await startScriptedServer();
    const url = server.url;
    await server.close();
    const r = await runCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: url, EMAIL_API_KEY: 'k' } });
    expect(r.code).toBe(1);
    const checks = byName(r.stdout);
    expect(checks.tcp).toMatchObject({ status: 'fail', detail: expect.stringContaining('connection refused'), hint: expect.stringContaining('email sandbox') });
    expect(checks['api key']!.status).toBe('skip');
    expect(checks.clock!.status).toBe('skip');
  });

  it('refuses plain http to a remote host without --insecure-http, and warns with it', async () => {
    const refused = await runCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: 'http://api.example.com', EMAIL_API_KEY: 'k' } });
    expect(refused.code).toBe(1);
    expect(byName(refused.stdout)['base URL']).toMatchObject({ status: 'fail', detail: expect.stringContaining('refusing plain http://') });
    expect(byName(refused.stdout).dns!.status).toBe('skip');
  });

  it('fails the key check on a redirect, naming where it pointed (CLI.md "redirects"), rather than calling it accepted', async () => {
    const server = await startScriptedServer();
    try {
      server.reply({ status: 302, headers: { location: 'https://sso.example/login' } });
      const r = await runCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code).toBe(1);
      expect(byName(r.stdout)['api key']).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining('302 Found to GET /email/clients/scheduled, pointing to https://sso.example/login'),
        hint: expect.stringContaining('base URL'),
      });
      expect(server.calls).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('warns when the local clock is more than a minute off the service Date header', async () => {
    const server = await startScriptedServer();
    try {
      const tenMinutesAgo = new Date(Date.now() - 10 * 60_000).toUTCString();
      server.reply({ status: 200, body: [], headers: { date: tenMinutesAgo } });
      const r = await runCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k' } });
      expect(r.code).toBe(0);
      expect(byName(r.stdout).clock).toMatchObject({ status: 'warn', detail: 'the local clock is 10 min ahead of the service', hint: expect.stringContaining('time synchronisation') });
    } finally {
      await server.close();
    }
  });

  it('judges clock skew with the round trip and the header resolution in mind', () => {
    const at = Date.parse('2025-03-04T05:06:07Z');
    const response = (date?: string) => ({ status: 200, headers: date ? { date } : {}, data: [], text: '[]' });
    expect(checkClock(response('Tue, 04 Mar 2025 05:06:07 GMT'), at + 200, at + 400).status).toBe('ok');
    expect(checkClock(response('Tue, 04 Mar 2025 05:06:07 GMT'), at + 30_000, at + 30_100)).toMatchObject({ status: 'ok', detail: expect.stringContaining('30 s ahead') });
    expect(checkClock(response('Tue, 04 Mar 2025 05:06:07 GMT'), at - 90_000, at - 89_900)).toMatchObject({ status: 'warn', detail: 'the local clock is 90 s behind the service' });
    expect(checkClock(response(), at, at).status).toBe('warn');
  });

  it('warns that a Node line is past its end of life (23 since 2025-06-01), fails one older than engines (Node 20 among them), and passes the maintained lines', () => {
    const may2026 = new Date('2026-05-01T12:00:00Z');
    expect(checkNode('23.11.1', may2026)).toMatchObject({
      status: 'warn',
      detail: 'Node.js 23.11.1: the 23 line reached its end of life on 2025-06-01 and gets no more security fixes; email still runs on it, but is tested on 22, 24 and 26',
      hint: 'install Node.js 24 LTS (or 22 LTS)',
    });
    expect(checkNode('25.2.0', new Date('2026-05-31T12:00:00Z')).status).toBe('ok');
    expect(checkNode('25.2.0', new Date('2026-06-02T12:00:00Z')).status).toBe('warn');
    expect(checkNode('22.14.0', may2026)).toMatchObject({ status: 'fail', detail: 'Node.js 22.14.0 is older than 22.15.0, the oldest this tool runs on' });
    expect(checkNode('20.20.2', may2026)).toMatchObject({ status: 'fail', detail: 'Node.js 20.20.2 is older than 22.15.0, the oldest this tool runs on', hint: 'install Node.js 24 LTS (or 22 LTS)' });
    expect(checkNode('18.20.4', may2026).status).toBe('fail');
    for (const version of ['22.15.0', '22.23.3', '24.21.0', '26.10.0', '28.0.0']) expect(checkNode(version, may2026), version).toMatchObject({ status: 'ok', detail: `Node.js ${version}` });
    expect(checkNode('22.23.3', new Date('2027-05-01T00:00:00Z')).status).toBe('warn');
  });

  it("knows the package's engines minimum", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${MIN_NODE_VERSION}`);
  });
});

// TLS needs certificates; openssl makes them (a Debian package, present on CI's machine kind).
const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

if (!openssl) console.warn('openssl is not installed: the doctor tests over TLS are skipped (they make their certificates with it)');
describe.skipIf(!openssl)('email doctor over TLS (loopback https)', () => {
  let dir: string;
  let server: HttpsServer;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'email-doctor-tls-'));
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Doctor Test CA/O=Doctor Test CA');
    run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=127.0.0.1');
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
    // Two days of validity: a certificate about to expire, which doctor warns about.
    run('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '2', '-extfile', 'san.ext');
    server = createHttpsServer({ key: readFileSync(join(dir, 'leaf.key')), cert: readFileSync(join(dir, 'leaf.pem')) }, (req, res) => {
      res.writeHead(req.url === '/email/clients/scheduled' ? 200 : 404, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('fails an untrusted certificate with a hint about NODE_EXTRA_CA_CERTS, and skips the key check', async () => {
    const r = await runCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: url, EMAIL_API_KEY: 'k' } });
    expect(r.code).toBe(1);
    const checks = byName(r.stdout);
    expect(checks.tls).toMatchObject({ status: 'fail', hint: expect.stringContaining('NODE_EXTRA_CA_CERTS') });
    expect(checks['api key']!.status).toBe('skip');
  });

  it('accepts a certificate from a CA given with NODE_EXTRA_CA_CERTS and warns that it expires soon', async () => {
    const r = await spawnCli(['doctor', '--json'], { env: { EMAIL_BASE_URL: url, EMAIL_API_KEY: 'k', NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') } });
    expect(r.code, r.stderr).toBe(0);
    const checks = byName(r.stdout);
    expect(checks.tls).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^TLSv1\.[23], certificate for 127\.0\.0\.1 issued by Doctor Test CA, valid until \d{4}-\d{2}-\d{2} \(\d+ ms\): expires in [12] days?$/) });
    expect(checks['api key']!.status).toBe('ok');
  });
});
