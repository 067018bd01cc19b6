// Keys in the operating system's keychain (issue 21; CLI.md "auth"), through
// bin/email as a user runs it, against a real Secret Service:
// gnome-keyring-daemon on a private D-Bus session bus with an unlocked login
// keyring in a temporary HOME (test/helpers/keyring-session.mjs), read and
// changed from outside with secret-tool. No stand-in for the keychain: where
// gnome-keyring or dbus cannot start, those tests skip and say why. The
// fallback to the 0600 file runs everywhere: no session bus at all, a bogus
// one, and a bus on which nothing provides the Secret Service.
import { readFileSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskKey } from '../../src/core/redact.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { startKeyringSession, type KeyringSession } from '../helpers/keyring-session.mjs';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.stop();
});

/** The keychain entry of a profile kept in a config directory given by EMAIL_CONFIG_DIR (src/core/keychain.ts). */
const serviceFor = (dir: string) => `email-cli:${resolve(dir)}`;
const configOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined };

const started = await startKeyringSession();
if (!started.ok) console.warn(`keychain tests skipped: no Secret Service could be started here (${started.reason})`);
const session = (started.ok ? started.session : undefined) as KeyringSession;
afterAll(() => session?.stop());

describe.runIf(started.ok)('with a Secret Service (gnome-keyring on a private session bus)', () => {
  const login = (dir: string, extra: string[] = [], profile?: string, stdin = sandbox.apiKey) =>
    spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key', ...(profile ? ['--profile', profile] : []), ...extra], {
      env: { EMAIL_CONFIG_DIR: dir, ...session.env },
      stdin,
    });
  const email = (dir: string, args: string[], env: Record<string, string | undefined> = {}) => spawnCli(args, { env: { EMAIL_CONFIG_DIR: dir, ...session.env, ...env } });

  it('auth login stores the key in the keychain and only the base URL in the file; a read uses it', async () => {
    const dir = tempConfigDir();
    const r = await login(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Logged in for profile "default"');
    expect(r.stderr).toMatch(/stored in the keychain/);
    expect(r.stderr).not.toMatch(/no keychain here/);
    expect(session.lookup(serviceFor(dir), 'default')).toBe(sandbox.apiKey);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(sandbox.apiKey);
    expect(configOf(dir).profiles.default).toEqual({ baseUrl: sandbox.url, keyStore: 'keychain' });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);

    const read = await email(dir, ['campaigns', 'sent', '--json']);
    expect(read.code, read.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(read.stdout))).toBe(true);
  });

  it('the default config directory keeps its keys under the service "email-cli", the account being the profile', async () => {
    const home = mkdtempSync(join(tmpdir(), 'email-keychain-home-'));
    const env = { EMAIL_CONFIG_DIR: undefined, HOME: home, XDG_CONFIG_HOME: undefined, ...session.env };
    const r = await spawnCli(['auth', 'login', '--profile', 'work', '--base-url', sandbox.url, '--with-key'], { env, stdin: sandbox.apiKey });
    expect(r.code, r.stderr).toBe(0);
    expect(session.lookup('email-cli', 'work')).toBe(sandbox.apiKey);
    expect((await spawnCli(['auth', 'logout', '--profile', 'work'], { env })).code).toBe(0);
    expect(session.lookup('email-cli', 'work')).toBe(null);
  });

  it('auth status and doctor say where the key is: in the keychain, or in the file (0600)', async () => {
    const dir = tempConfigDir();
    expect((await login(dir)).code).toBe(0);
    expect((await login(dir, ['--insecure-storage'], 'plain')).code).toBe(0);
    const status = await email(dir, ['auth', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({ profile: 'default', keyStore: 'keychain', key: maskKey(sandbox.apiKey), check: 'valid' }),
      expect.objectContaining({ profile: 'plain', keyStore: 'file', key: maskKey(sandbox.apiKey) }),
    ]);
    const table = await email(dir, ['auth', 'status']);
    expect(table.stdout).toMatch(/^default\t.*\tin the keychain\t/m);
    expect(table.stdout).toContain(`in ${join(dir, 'config.json')} (0600)`);
    expect(table.stdout).not.toContain(sandbox.apiKey);

    const doctor = JSON.parse((await email(dir, ['doctor', '--json'])).stdout);
    expect(doctor.find((c: { check: string }) => c.check === 'profile')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/key \*+\w* in the keychain/) });
    const plain = JSON.parse((await email(dir, ['doctor', '--json', '--profile', 'plain'])).stdout);
    expect(plain.find((c: { check: string }) => c.check === 'profile').detail).toContain(`in ${join(dir, 'config.json')} (0600)`);
  });

  it('a key stored in the file before keeps working, and auth login again moves it into the keychain', async () => {
    const dir = tempConfigDir();
    // As the tool wrote it before keys went to the keychain: no keyStore, the key beside the base URL.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ defaultProfile: 'default', profiles: { default: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } } }), { mode: 0o600 });
    const before = await email(dir, ['campaigns', 'sent', '--json']);
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse((await email(dir, ['auth', 'status', '--json'])).stdout)[0]).toMatchObject({ keyStore: 'file', check: 'valid' });

    const moved = await login(dir);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/moved from .*config\.json to the keychain/);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(sandbox.apiKey);
    expect(session.lookup(serviceFor(dir), 'default')).toBe(sandbox.apiKey);
    expect((await email(dir, ['campaigns', 'sent', '--json'])).code).toBe(0);
  });

  it('--insecure-storage keeps the key in the file, and takes it out of the keychain', async () => {
    const dir = tempConfigDir();
    expect((await login(dir)).code).toBe(0);
    expect(session.lookup(serviceFor(dir), 'default')).toBe(sandbox.apiKey);
    const r = await login(dir, ['--insecure-storage']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`stored in ${join(dir, 'config.json')} (mode 0600)`);
    expect(r.stderr).not.toMatch(/no keychain here/);
    expect(configOf(dir).profiles.default).toEqual({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, keyStore: 'file' });
    expect(session.lookup(serviceFor(dir), 'default')).toBe(null);
    expect((await email(dir, ['campaigns', 'sent', '--json'])).code).toBe(0);
  });

  it('auth logout removes the key from the keychain; the other profiles keep theirs', async () => {
    const dir = tempConfigDir();
    expect((await login(dir)).code).toBe(0);
    expect((await login(dir, [], 'other')).code).toBe(0);
    const r = await email(dir, ['auth', 'logout', '--profile', 'other']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Removed profile "other" \(.* and its key, from the keychain\)/);
    expect(session.lookup(serviceFor(dir), 'other')).toBe(null);
    expect(session.lookup(serviceFor(dir), 'default')).toBe(sandbox.apiKey);
    expect(Object.keys(configOf(dir).profiles)).toEqual(['default']);
  });

  it('an entry deleted behind the tool\'s back: a read says which profile lost its key, exit 4; status and doctor say so too', async () => {
    const dir = tempConfigDir();
    expect((await login(dir, [], 'staging')).code).toBe(0);
    session.clear(serviceFor(dir), 'staging');
    const read = await email(dir, ['campaigns', 'sent']);
    expect(read.code, read.stderr).toBe(4);
    expect(read.stderr).toMatch(/^error: the key of profile "staging" is no longer in the keychain/);
    expect(read.stderr).toContain('email auth login --profile staging');
    const json = await email(dir, ['campaigns', 'sent', '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr.trim().split('\n').pop()!).error).toMatchObject({ kind: 'auth', message: expect.stringContaining('"staging"') });

    const status = await email(dir, ['auth', 'status', '--json']);
    expect(status.code).toBe(4);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ profile: 'staging', keyStore: 'keychain', key: null });
    const doctor = await email(dir, ['doctor', '--json']);
    expect(doctor.code).toBe(4);
    expect(JSON.parse(doctor.stdout).find((c: { check: string }) => c.check === 'profile')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/"staging".*no longer in the keychain/) });
    // Logging out of a profile whose key is gone is no error.
    const logout = await email(dir, ['auth', 'logout']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toMatch(/Removed profile "staging" \(.*; the key was already gone from the keychain\)/);
  });

  it('EMAIL_API_KEY overrides everything: a profile whose keychain entry is gone is not even read', async () => {
    const dir = tempConfigDir();
    expect((await login(dir)).code).toBe(0);
    session.clear(serviceFor(dir), 'default');
    const r = await email(dir, ['campaigns', 'sent', '--json'], { EMAIL_API_KEY: sandbox.apiKey, EMAIL_BASE_URL: sandbox.url });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe.runIf(started.ok)('with a locked keychain', () => {
  // A session of its own: the login keyring, once locked, stays locked (its unlock prompt has nobody to answer it).
  let locked: KeyringSession;
  let dir: string;
  beforeAll(async () => {
    const s = await startKeyringSession();
    if (!s.ok) throw new Error(`a second keyring session could not start: ${s.reason}`);
    locked = s.session;
    dir = tempConfigDir();
    const r = await spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir, ...locked.env }, stdin: sandbox.apiKey });
    expect(r.code, r.stderr).toBe(0);
    locked.lock();
  });
  afterAll(() => locked?.stop());

  it('auth login is one error with a hint (unlock, or --insecure-storage), exit 4, and stores nothing', async () => {
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const r = await spawnCli(['auth', 'login', '--profile', 'second', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir, ...locked.env }, stdin: sandbox.apiKey });
    expect(r.code, r.stderr).toBe(4);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^error: the keychain refused to store the key .*; nothing was stored$/);
    expect(r.stderr).toMatch(/unlock/i);
    expect(r.stderr).toContain('--insecure-storage');
    expect(lines.filter((l) => l.startsWith('error:'))).toHaveLength(1);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('a read is one error with the same hint, exit 4', async () => {
    const r = await spawnCli(['campaigns', 'sent'], { env: { EMAIL_CONFIG_DIR: dir, ...locked.env } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: the keychain refused .* profile "default"/);
    expect(r.stderr).toMatch(/unlock/i);
    expect(r.stderr).toContain('--insecure-storage');
  });

  it('auth logout of a profile whose key it cannot remove is one error, exit 4, and removes nothing', async () => {
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const r = await spawnCli(['auth', 'logout'], { env: { EMAIL_CONFIG_DIR: dir, ...locked.env } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: the keychain refused to remove the key of profile "default" .*; nothing was removed\nhint: Unlock the keychain/);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('--insecure-storage still stores the key, in the file', async () => {
    const r = await spawnCli(['auth', 'login', '--profile', 'plain', '--base-url', sandbox.url, '--with-key', '--insecure-storage'], {
      env: { EMAIL_CONFIG_DIR: dir, ...locked.env },
      stdin: sandbox.apiKey,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(configOf(dir).profiles.plain).toMatchObject({ apiKey: sandbox.apiKey, keyStore: 'file' });
  });

  it('--insecure-storage for a profile whose key is in the locked keychain: the file now, and a warning naming the entry left behind', async () => {
    const r = await spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key', '--insecure-storage'], { env: { EMAIL_CONFIG_DIR: dir, ...locked.env }, stdin: sandbox.apiKey });
    expect(r.code, r.stderr).toBe(0);
    expect(configOf(dir).profiles.default).toMatchObject({ apiKey: sandbox.apiKey, keyStore: 'file' });
    expect(r.stderr).toContain(`warning: the key stored earlier in the keychain for profile "default" could not be removed`);
    expect(r.stderr).toContain(`entry "default" of "${serviceFor(dir)}"`);
  });
});

describe('where no keychain exists, the 0600 file as before', () => {
  const cases: [string, () => Promise<Record<string, string | undefined>>, () => void][] = [];
  cases.push(['no session bus (DBUS_SESSION_BUS_ADDRESS unset)', async () => NO_BUS, () => {}]);
  cases.push(['a session bus address that leads nowhere', async () => ({ ...NO_BUS, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/email-test-bus' }), () => {}]);
  let busOnly: KeyringSession | undefined;
  cases.push([
    'a session bus on which nothing provides the Secret Service',
    async () => {
      const s = await startKeyringSession({ secretService: false });
      if (!s.ok) return {};
      busOnly = s.session;
      return { ...NO_BUS, ...s.session.env };
    },
    () => busOnly?.stop(),
  ]);

  for (const [name, envOf, cleanup] of cases) {
    it(`${name}: auth login says once where the key went, and everything works from the file`, async () => {
      const env = await envOf();
      try {
        if (Object.keys(env).length === 0) {
          console.warn(`skipped "${name}": dbus-daemon could not start`);
          return;
        }
        const dir = tempConfigDir();
        const file = join(dir, 'config.json');
        const r = await spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir, ...env }, stdin: sandbox.apiKey });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr.match(/no keychain here/g)).toHaveLength(1);
        expect(r.stderr).toMatch(new RegExp(`no keychain here( \\([^)]*\\))?: the key is stored in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(mode 0600\\)`));
        expect(configOf(dir).profiles.default).toEqual({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, keyStore: 'file' });
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const read = await spawnCli(['campaigns', 'sent', '--json'], { env: { EMAIL_CONFIG_DIR: dir, ...env } });
        expect(read.code, read.stderr).toBe(0);
        const status = JSON.parse((await spawnCli(['auth', 'status', '--json'], { env: { EMAIL_CONFIG_DIR: dir, ...env } })).stdout);
        expect(status[0]).toMatchObject({ keyStore: 'file', check: 'valid' });
        expect((await spawnCli(['auth', 'logout'], { env: { EMAIL_CONFIG_DIR: dir, ...env } })).code).toBe(0);
        expect(configOf(dir).profiles).toEqual({});
      } finally {
        cleanup();
      }
    });
  }

  it('a profile whose key is in the keychain, run where none can be reached: exit 4 naming the profile, with a hint', async () => {
    const dir = tempConfigDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ defaultProfile: 'default', profiles: { default: { baseUrl: sandbox.url, keyStore: 'keychain' } } }), { mode: 0o600 });
    const r = await spawnCli(['campaigns', 'sent'], { env: { EMAIL_CONFIG_DIR: dir, ...NO_BUS } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/the key of profile "default" is in the keychain, which cannot be reached here/);
    expect(r.stderr).toContain('EMAIL_API_KEY');
  });
});
