// A keychain that exists and does not answer (CLI.md "auth login": "A keychain
// that exists but fails, is locked or does not answer in time is an error
// (exit 4, hint `--insecure-storage`), never a silent fallback to the file").
// A real gnome-keyring on a private session bus (test/helpers/keyring-session.mjs),
// stopped with SIGSTOP: it keeps its name on the bus and answers nothing, as a
// hung daemon does. D-Bus gives up on it only after 25 s; the tool before
// waited that long (a read twice over, through SIGINT and SIGTERM), and a
// login then kept the key in the file, saying only "no keychain here".
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { startKeyringSession, type KeyringSession } from '../helpers/keyring-session.mjs';

let sandbox: RunningSandbox;
const started = await startKeyringSession();
if (!started.ok) console.warn(`hung-keychain tests skipped: no Secret Service could be started here (${started.reason})`);
const session = (started.ok ? started.session : undefined) as KeyringSession;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  if (!session) return;
  dir = tempConfigDir();
  const r = await spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key'], { env: { EMAIL_CONFIG_DIR: dir, ...session.env }, stdin: sandbox.apiKey });
  expect(r.code, r.stderr).toBe(0);
  session.freeze();
});
afterAll(async () => {
  session?.stop();
  await sandbox.stop();
});

const env = () => ({ EMAIL_CONFIG_DIR: dir, ...session.env });
// A call left running holds a thread that Node's exit joins: the process ends
// with its code all the same, through process.execve (src/core/exit-now.ts).
// The tool's 5 s limit (src/core/keychain.ts), and time to start node on a busy machine; D-Bus's own 25 s is well past it.
const BOUND_MS = 13_000;
const TEST_MS = BOUND_MS + 5_000;

describe.runIf(started.ok)('a Secret Service that hangs', () => {
  it('a read is exit 4 within the time limit, naming the profile, with a hint', async () => {
    const r = await spawnCli(['campaigns', 'sent'], { env: env(), timeoutMs: BOUND_MS });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: the keychain did not answer .*profile "default"/);
    expect(r.stderr).toContain('--insecure-storage');
    expect(r.stderr).toContain('EMAIL_API_KEY');
  }, TEST_MS);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`a read waiting for it ends on ${signal}, exit 130`, async () => {
      const run = startCli(['campaigns', 'sent'], { env: env() });
      await new Promise((r) => setTimeout(r, 1500));
      const sentAt = Date.now();
      run.child.kill(signal);
      const killer = setTimeout(() => run.child.kill('SIGKILL'), 3_000);
      const code = await run.exited;
      clearTimeout(killer);
      expect(code, run.output().stderr).toBe(130);
      expect(run.output().stderr).toMatch(/^error: interrupted/);
      expect(Date.now() - sentAt).toBeLessThan(3_000);
    }, TEST_MS);
  }

  it('auth login is exit 4 with the --insecure-storage hint, and the key is not written to the file', async () => {
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const r = await spawnCli(['auth', 'login', '--profile', 'second', '--base-url', sandbox.url, '--with-key'], { env: env(), stdin: sandbox.apiKey, timeoutMs: BOUND_MS });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: the keychain did not answer .*; nothing was stored/);
    expect(r.stderr).not.toMatch(/no keychain here/);
    expect(r.stderr).toContain('--insecure-storage');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  }, TEST_MS);

  it('auth login --insecure-storage stores the key in the file, as the user chose', async () => {
    const other = tempConfigDir();
    const r = await spawnCli(['auth', 'login', '--base-url', sandbox.url, '--with-key', '--insecure-storage'], { env: { ...env(), EMAIL_CONFIG_DIR: other }, stdin: sandbox.apiKey, timeoutMs: BOUND_MS });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(other, 'config.json'), 'utf8')).profiles.default).toMatchObject({ apiKey: sandbox.apiKey, keyStore: 'file' });
  }, TEST_MS);

  it('auth logout is exit 4 and removes nothing', async () => {
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const r = await spawnCli(['auth', 'logout'], { env: env(), timeoutMs: BOUND_MS });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: the keychain did not answer/);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(existsSync(resolve(dir))).toBe(true);
  }, TEST_MS);
});
