// `email auth` and the config store it writes, in-process: which directories
// the tool accepts and which it creates (CLI.md "config location"), that a
// read never creates anything, that a key is stored only after a 2xx check
// (CLI.md "auth login"), and how short keys are masked.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConfig } from '../../src/core/config.js';
import { runCli } from '../helpers/cli.js';
import { useRunningSandbox } from '../helpers/sandbox.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const sandbox = useRunningSandbox({}, 'all');

const scratch = () => mkdtempSync(join(tmpdir(), 'email-auth-test-'));
const mode = (path: string) => statSync(path).mode & 0o7777;
const posix = process.platform !== 'win32';

if (!posix) console.warn('not a POSIX system: the tests of the config directory\'s modes are skipped');
if (process.getuid?.() !== 0) console.warn('not run as root: the test of a symlink to another user\'s directory is skipped (only root can make a directory another user owns)');
describe.runIf(posix)('the config directory', () => {
  it('an existing directory others can write to (1777) is refused with its name; its mode is unchanged and nothing is created in it', async () => {
    const dir = join(scratch(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    const status = await runCli(['auth', 'status'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(status.code, status.stderr).toBe(2);
    expect(status.stderr).toContain(dir);
    expect(status.stderr).toMatch(/other users can write to it/);
    expect(status.stderr).toMatch(/chmod 700/);
    const login = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir }, stdin: sandbox.apiKey });
    expect(login.code, login.stderr).toBe(2);
    expect(mode(dir)).toBe(0o1777);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a read (auth status) creates neither the directory nor the file', async () => {
    const existing = scratch();
    chmodSync(existing, 0o755);
    const r = await runCli(['auth', 'status', '--json'], { env: { EMAIL_CONFIG_DIR: existing } });
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(readdirSync(existing)).toEqual([]);
    expect(mode(existing)).toBe(0o755);
    const missing = join(scratch(), 'not-yet');
    await runCli(['auth', 'status'], { env: { EMAIL_CONFIG_DIR: missing } });
    await runCli(['subscribers', 'lists', '--email', 'a@example.com'], { env: { EMAIL_CONFIG_DIR: missing } });
    expect(existsSync(missing)).toBe(false);
  });

  it('login keeps the mode of an existing private directory, and creates a missing one 0700 with the file 0600', async () => {
    const existing = scratch();
    chmodSync(existing, 0o750);
    const first = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: existing }, stdin: sandbox.apiKey });
    expect(first.code, first.stderr).toBe(0);
    expect(mode(existing)).toBe(0o750);
    expect(mode(join(existing, 'config.json'))).toBe(0o600);
    const created = join(scratch(), 'a', 'email-cli');
    const second = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: created }, stdin: sandbox.apiKey });
    expect(second.code, second.stderr).toBe(0);
    expect(mode(created)).toBe(0o700);
    expect(mode(join(created, 'config.json'))).toBe(0o600);
  });

  it('a symlink planted as the directory, pointing at a directory others can write to, is a clear error (no EPERM, no internal error)', async () => {
    const base = scratch();
    const target = join(base, 'open');
    mkdirSync(target);
    chmodSync(target, 0o1777);
    const link = join(base, 'email-cli');
    symlinkSync(target, link);
    const r = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: link }, stdin: sandbox.apiKey });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(/internal error|EPERM/);
    expect(r.stderr).toContain(link);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(mode(target)).toBe(0o1777);
    expect(readdirSync(target)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)('a symlink to a directory that belongs to another user is refused, as ssh refuses it', async () => {
    const base = scratch();
    const target = join(base, 'theirs');
    mkdirSync(target, { mode: 0o700 });
    const { chownSync } = await import('node:fs');
    chownSync(target, 65534, 65534);
    const link = join(base, 'email-cli');
    symlinkSync(target, link);
    const r = await runCli(['auth', 'status'], { env: { EMAIL_CONFIG_DIR: link } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/belongs to user 65534/);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it('a symlink to a private directory of your own is followed (as ssh follows ~/.ssh)', async () => {
    const base = scratch();
    const target = join(base, 'dotfiles');
    mkdirSync(target, { mode: 0o700 });
    const link = join(base, 'email-cli');
    symlinkSync(target, link);
    const r = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: link }, stdin: sandbox.apiKey });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(target, 'config.json'))).toBe(true);
  });
});

describe('auth login stores a key only after a 2xx check', () => {
  it('a base URL answering 404 stores nothing and says there is no service there', async () => {
    const server = await startScriptedServer();
    try {
      server.reply({ status: 404, body: 'Not Found' });
      const dir = join(scratch(), 'cfg');
      const r = await runCli(['auth', 'login', '--base-url', server.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir }, stdin: 'a-key-that-is-long-enough' });
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain('Logged in');
      expect(r.stderr).toMatch(/no service at this base URL/);
      expect(r.stderr).toMatch(/nothing was stored/i);
      expect(server.calls).toHaveLength(1);
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a 5xx or an unreachable service stores nothing either', async () => {
    const server = await startScriptedServer();
    const dir = join(scratch(), 'cfg');
    try {
      // The check is a read and is retried: every attempt answers 503 (spare replies: the retries are not counted here).
      server.spare(...Array.from({ length: 10 }, () => ({ status: 503, body: { Code: 500, Message: 'down' } })));
      const r = await runCli(['auth', 'login', '--base-url', server.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir }, stdin: 'a-key-that-is-long-enough' });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/nothing was stored/i);
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    } finally {
      await server.close();
    }
    const closed = await runCli(['auth', 'login', '--base-url', server.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir }, stdin: 'a-key-that-is-long-enough' });
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/nothing was stored/i);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a refused key (401) stores nothing, exits 4, and says so', async () => {
    const dir = join(scratch(), 'cfg');
    const r = await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir }, stdin: 'bogus' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/refused/);
    expect(r.stderr).toMatch(/nothing was stored/i);
    // The hint fits what happened: nothing was stored, so `email auth status` has nothing to check (issue 13.3).
    expect(r.stderr).not.toMatch(/auth status/);
    expect(r.stderr).toMatch(/^hint: Copy the key again/m);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('auth logout', () => {
  it('says what was removed and which profile is now the default (issue 13.4)', async () => {
    const dir = join(scratch(), 'cfg');
    const store = await openConfig({ EMAIL_CONFIG_DIR: dir });
    await store.write({ defaultProfile: 'prod', profiles: { prod: { baseUrl: 'https://a.example.com', apiKey: 'k-11111111' }, staging: { baseUrl: 'https://b.example.com', apiKey: 'k-22222222' } } });
    const r = await runCli(['auth', 'logout'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Removed profile "prod" (https://a.example.com and its key).\nThe default profile is now "staging" (https://b.example.com); `email auth switch <profile>` changes it.\n');
    const last = await runCli(['auth', 'logout', '--profile', 'staging'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(last.stderr).toBe('Removed profile "staging" (https://b.example.com and its key).\nNo profile is left, so there is no default profile: `email auth login` stores one, and makes it the default.\n');
  });

  it('removing a profile that is not the default leaves the default as it was', async () => {
    const dir = join(scratch(), 'cfg');
    const store = await openConfig({ EMAIL_CONFIG_DIR: dir });
    await store.write({ defaultProfile: 'prod', profiles: { prod: { baseUrl: 'https://a.example.com', apiKey: 'k-11111111' }, staging: { baseUrl: 'https://b.example.com', apiKey: 'k-22222222' } } });
    const r = await runCli(['auth', 'logout', '--profile', 'staging'], { env: { EMAIL_CONFIG_DIR: dir } });
    expect(r.stderr).toBe('Removed profile "staging" (https://b.example.com and its key). The default profile is still "prod".\n');
  });
});

describe('key masking', () => {
  it('shows at most a quarter of a key and never more than its last 4 characters; nothing of a key under 8', async () => {
    const { maskKey } = await import('../../src/core/redact.js');
    expect(maskKey('bogus')).toBe('***');
    expect(maskKey('1234567')).toBe('***');
    expect(maskKey('12345678')).toBe('***78');
    expect(maskKey('abcdefghijkl')).toBe('***jkl');
    expect(maskKey('0123456789abcdef0123')).toBe('***0123');
  });

  it('auth status of a short env key shows none of it', async () => {
    const r = await runCli(['auth', 'status', '--json'], { env: { EMAIL_API_KEY: 'bogus', EMAIL_BASE_URL: sandbox.url } });
    expect(r.stdout).not.toContain('ogus');
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ key: '***' });
  });
});

describe('--base-url over plain http', () => {
  it('refuses a *.localhost name without --insecure-http, before any request (it would be resolved through DNS)', async () => {
    const r = await runCli(['subscribers', 'lists', '--email', 'a@example.com', '--base-url', 'http://api.localhost:4010'], { env: { EMAIL_API_KEY: 'a-key-that-is-long-enough' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: refusing plain http:\/\/ to api\.localhost:4010/);
    const login = await runCli(['auth', 'login', '--base-url', 'http://api.localhost:4010', '--with-key'], { stdin: 'a-key-that-is-long-enough' });
    expect(login.code).toBe(2);
  });
});
