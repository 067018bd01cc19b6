// The one sandbox fixture of the tests: the sandbox on a free loopback port,
// either spoken to over HTTP by a small client (the sandbox's own tests) or
// driven by the CLI run in-process against it, with the requests it recorded,
// so a test can state exactly what went over the wire (or that nothing did).
// useSandbox(), useCommandSandbox() and sandboxPerTest() start one for each
// test (or once for the file) and stop it after, so no test file repeats that
// pair of hooks.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startSandbox, type RecordedRequest, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir, type CliResult, type InProcessOptions } from './cli.js';
import { tempDir } from './import-files.js';

/** Started before each test of the file (`each`, a fresh state every time) or once before all of them (`all`). */
export type FixtureScope = 'each' | 'all';

/**
 * Registers the hooks that start a fixture before each test (or once for the
 * file) and stop it after, and returns a stand-in that reaches the running
 * fixture: call it only inside tests and hooks.
 */
export function useFixture<T extends object>(start: () => Promise<T>, stop: (fixture: T) => Promise<unknown>, scope: FixtureScope = 'each'): T {
  let current: T | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    current = await start();
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    const running = current;
    current = undefined;
    if (running) await stop(running);
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (!current) throw new Error(`the fixture is not running: use it inside a test or hook (read ${String(key)})`);
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

type OptionsOf<T> = T | (() => T);
const optionsOf = <T>(options: OptionsOf<T>): T => (typeof options === 'function' ? (options as () => T)() : options);

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: T;
  text: string;
}

export interface SandboxClient {
  sandbox: RunningSandbox;
  call<T = any>(method: string, path: string, body?: unknown, opts?: { key?: string | null; rawBody?: string; headers?: Record<string, string> }): Promise<ApiAnswer<T>>;
}

/** A sandbox and a tiny client that speaks real HTTP to it (global fetch, i.e. undici); the caller stops it. */
export async function withSandbox(options: SandboxOptions = {}): Promise<SandboxClient> {
  const sandbox = await startSandbox({ port: 0, ...options });
  return {
    sandbox,
    async call(method, path, body, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      const key = opts.key === undefined ? sandbox.apiKey : opts.key;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      let payload: string | undefined = opts.rawBody;
      if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
      if (payload !== undefined) headers['Content-Type'] ??= 'application/json';
      const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: payload });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
    },
  };
}

/** withSandbox() started before each test (or once for the file) and stopped after. Options may be a function, read when it starts. */
export function useSandbox(options: OptionsOf<SandboxOptions> = {}, scope: FixtureScope = 'each'): SandboxClient {
  return useFixture(() => withSandbox(optionsOf(options)), (c) => c.sandbox.stop(), scope);
}

/** A bare running sandbox started before each test (or once for the file) and stopped after. */
export function useRunningSandbox(options: OptionsOf<SandboxOptions> = {}, scope: FixtureScope = 'each'): RunningSandbox {
  return useFixture(() => startSandbox({ port: 0, ...optionsOf(options) }), (s) => s.stop(), scope);
}

export interface CommandSandbox {
  sandbox: RunningSandbox;
  env: Record<string, string>;
  /** Runs `email <argv>` in-process against the sandbox. */
  email(argv: string[], options?: InProcessOptions): Promise<CliResult>;
  /** Runs the command and returns it with the requests it sent. */
  emailSent(argv: string[], options?: InProcessOptions): Promise<CliResult & { sent: RecordedRequest[] }>;
  /**
   * Runs a command that a client-side check must refuse: exit 2, the
   * service's code on stderr (when given), a message matching `message`, and
   * not one request sent (the sandbox's request count is unchanged).
   */
  expectRefused(argv: string[], code: number | undefined, message?: RegExp, options?: InProcessOptions): Promise<CliResult>;
  stop(): Promise<void>;
}

export async function startCommandSandbox(options: SandboxOptions = {}): Promise<CommandSandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
  const email = (argv: string[], o: InProcessOptions = {}) => runCli(argv, { ...o, env: { ...env, ...o.env } });
  return {
    sandbox,
    env,
    email,
    async emailSent(argv, o) {
      const before = sandbox.requestCount();
      const result = await email(argv, o);
      const count = sandbox.requestCount() - before;
      return { ...result, sent: count ? sandbox.requests.slice(-count) : [] };
    },
    async expectRefused(argv, code, message, o) {
      const before = sandbox.requestCount();
      const result = await email(argv, o);
      expect(result.code, `exit code of email ${argv.join(' ')}\nstderr: ${result.stderr}`).toBe(2);
      expect(sandbox.requestCount(), 'requests sent').toBe(before);
      expect(result.stdout).toBe('');
      if (code !== undefined) expect(result.stderr).toMatch(new RegExp(`^error ${code}: `));
      else expect(result.stderr).toMatch(/^error: /);
      if (message) expect(result.stderr).toMatch(message);
      return result;
    },
    stop: () => sandbox.stop(),
  };
}

/** startCommandSandbox() started once for the file (or before each test) and stopped after. */
export function useCommandSandbox(options: OptionsOf<SandboxOptions> = {}, scope: FixtureScope = 'all'): CommandSandbox {
  return useFixture(() => startCommandSandbox(optionsOf(options)), (s) => s.stop(), scope);
}

/** A test's own sandbox, directory and environment (sandboxPerTest()). */
export interface TestSandbox {
  readonly sandbox: RunningSandbox;
  /** A directory of the test's own: its files are written here and `email` runs here. */
  readonly dir: string;
  /** What points `email` at the sandbox: its URL and key, and a config directory of the test's own. */
  readonly env: Record<string, string>;
  /** Runs `email <argv>` in-process, in `dir`, against the sandbox. */
  email(argv: string[], options?: InProcessOptions): Promise<CliResult>;
  /** Replaces the sandbox with one started with these options (a slow one, say); `env` points at the new one. */
  restart(options: SandboxOptions): Promise<RunningSandbox>;
}

class PerTest implements TestSandbox {
  readonly dir = tempDir();
  readonly env: Record<string, string>;
  constructor(public sandbox: RunningSandbox) {
    this.env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir() };
  }
  email(argv: string[], o: InProcessOptions = {}): Promise<CliResult> {
    return runCli(argv, { cwd: this.dir, ...o, env: { ...this.env, ...o.env } });
  }
  async restart(options: SandboxOptions): Promise<RunningSandbox> {
    await this.sandbox.stop();
    this.sandbox = await startSandbox({ port: 0, ...options });
    Object.assign(this.env, { EMAIL_BASE_URL: this.sandbox.url, EMAIL_API_KEY: this.sandbox.apiKey });
    return this.sandbox;
  }
}

/**
 * A fresh sandbox, directory and config directory for each test, stopped
 * after it: the setup of tests that run `email` on files they write (imports).
 */
export function sandboxPerTest(options: OptionsOf<SandboxOptions> = {}): TestSandbox {
  return useFixture(async () => new PerTest(await startSandbox({ port: 0, ...optionsOf(options) })), (t) => t.sandbox.stop(), 'each');
}

/** The one error object `--json` prints on stderr. */
export function jsonError(stderr: string): { status: number | null; code: number | null; message: string; resultData?: unknown } {
  return JSON.parse(stderr.trim().split('\n').pop()!).error;
}
