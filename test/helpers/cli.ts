// Runs the CLI the two ways our users' scripts meet it: in-process through
// run() with injected IO (fast, for command tests), or as a real `bin/email`
// subprocess (end-to-end, exactly as a CI script would).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { run } from '../../src/cli.js';
import type { Prompt } from '../../src/context.js';

export const BIN = fileURLToPath(new URL('../../bin/email', import.meta.url));
const BUILT_CLI = new URL('../../dist/cli.cjs', import.meta.url);

/**
 * Fails, saying how to build, when bin/email's bundle is missing: a subprocess
 * test without a build is a failure, never a skip.
 */
export function requireBuild(built: URL = BUILT_CLI): void {
  if (!existsSync(built)) {
    const path = fileURLToPath(built).replace(`${fileURLToPath(new URL('../../', import.meta.url))}`, '');
    throw new Error(`${path} is missing: run \`npm run build\` first (npm test builds before it tests); bin/email runs the bundle in dist/`);
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'email-test-config-'));
}

/**
 * A config directory whose default profile belongs to the service at `baseUrl`
 * (no key stored): its stored defaults apply when EMAIL_BASE_URL names that
 * service, as they would after `auth login` there (CLI.md "email config").
 */
export async function serviceDir(baseUrl: string): Promise<string> {
  const dir = tempConfigDir();
  const { openConfig } = await import('../../src/core/config.js');
  await (await openConfig({ EMAIL_CONFIG_DIR: dir })).write({ defaultProfile: 'default', profiles: { default: { baseUrl } } });
  return dir;
}

let cacheDir: string | undefined;
/**
 * One cache directory for the runs of a test process, in-process and
 * subprocess: completion remembers lists there (src/core/id-cache.ts), never
 * in the developer's. bin/email keeps Node's compile cache there too, so only
 * the first subprocess run of the process compiles the program from source.
 */
function testCacheDir(): string {
  return (cacheDir ??= mkdtempSync(join(tmpdir(), 'email-test-cache-')));
}

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdinIsTTY?: boolean;
  /** The terminal's width when stdout is one (default 120). */
  columns?: number;
  prompt?: Prompt;
  signal?: AbortSignal;
  cwd?: string;
}

/** Runs `email <argv>` in this process; EMAIL_CONFIG_DIR defaults to a fresh temp dir. */
export async function runCli(argv: string[], options: InProcessOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    io: {
      stdout: { write: (s) => ((stdout += String(s)), true) },
      stderr: { write: (s) => ((stderr += String(s)), true) },
      stdin: options.stdin !== undefined ? Readable.from([Buffer.from(options.stdin)]) : new PassThrough(),
      stdoutIsTTY: options.stdoutIsTTY ?? false,
      stderrIsTTY: options.stderrIsTTY ?? false,
      stdinIsTTY: options.stdinIsTTY ?? false,
      columns: options.stdoutIsTTY ? (options.columns ?? 120) : undefined,
    },
    // A cache directory of the tests' own: completion remembers lists there (src/core/id-cache.ts), never in the user's.
    env: { EMAIL_CONFIG_DIR: tempConfigDir(), XDG_CACHE_HOME: testCacheDir(), EMAIL_RETRY_BASE_MS: '5', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal,
    prompt: options.prompt,
  });
  return { code, stdout, stderr };
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  /** Bytes for a subprocess's standard input (a gzip stream, say), or text. */
  stdin?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
  /** A command that runs `node bin/email …` as its last arguments (`unshare -m sh -c '…; exec "$@"' sh`, say). */
  wrap?: string[];
}

/** A `bin/email` started and not waited for: to interrupt it, or to run two at once. */
export interface RunningCli {
  child: ChildProcess;
  /** The exit code (null after a signal). */
  exited: Promise<number | null>;
  /** What it printed so far. */
  output(): { stdout: string; stderr: string };
}

/** The developer's own session bus, by which bin/email would reach their keychain (src/core/keychain.ts): tests give their own. */
const SESSION_BUS = ['DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR'];

/**
 * Starts `bin/email <argv>` (the built bundle: `npm test` builds first) with
 * the test's environment: the developer's own EMAIL_* settings and session
 * bus never leak in, retries wait 5 ms, and a config directory and a cache
 * home (testCacheDir, or under the HOME the test gives) of its own unless the
 * test gives one.
 */
export function startCli(argv: string[], options: Omit<SpawnOptions, 'timeoutMs'> = {}): RunningCli {
  requireBuild();
  const env: Record<string, string> = {};
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && !SESSION_BUS.includes(k)),
  );
  for (const [k, v] of Object.entries({ ...inherited, EMAIL_RETRY_BASE_MS: '5', ...options.env })) {
    if (v !== undefined) env[k] = v;
  }
  if (!options.env || !('EMAIL_CONFIG_DIR' in options.env)) env.EMAIL_CONFIG_DIR = tempConfigDir();
  // A HOME given (and no XDG_CACHE_HOME) is where the test wants the caches: the developer's XDG_CACHE_HOME goes.
  if (!options.env || !('XDG_CACHE_HOME' in options.env)) {
    if (options.env && 'HOME' in options.env) delete env.XDG_CACHE_HOME;
    else env.XDG_CACHE_HOME = testCacheDir();
  }
  const [command, ...args] = [...(options.wrap ?? []), process.execPath, BIN, ...argv];
  const child = spawn(command!, args, { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Decoded as streams: a character cut between two chunks stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // A command that ends without reading its stdin closes the pipe: EPIPE here is its outcome, not the test's error.
  child.stdin.on('error', () => {});
  child.stdin.end(options.stdin ?? '');
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Runs `bin/email <argv>` to its end (startCli's environment); killed after `timeoutMs`. */
export async function spawnCli(argv: string[], options: SpawnOptions = {}): Promise<CliResult> {
  const run = startCli(argv, options);
  const timeoutMs = options.timeoutMs ?? 20_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new Error(`email ${argv.join(' ')} did not finish in ${timeoutMs} ms\nstderr: ${run.output().stderr}`));
    }, timeoutMs);
  });
  try {
    const code = await Promise.race([run.exited, timedOut]);
    return { code: code ?? -1, ...run.output() };
  } finally {
    clearTimeout(timer);
  }
}

/** One line of stderr in machine mode (CLI.md "machine mode", docs/scripting.md). */
export interface MachineLine {
  type: string;
  message: string;
  error?: { kind: string; status: number | null; code: number | null; message: string; resultData?: unknown };
  [field: string]: unknown;
}

/** Stderr of a run under --json / -o json|ndjson, each line parsed; throws naming the first line that is not one JSON object. */
export function machineLines(stderr: string): MachineLine[] {
  return stderr
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`stderr line is not JSON: ${line}`);
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`stderr line is not one JSON object: ${line}`);
      return value as MachineLine;
    });
}

/**
 * Stderr as people read it: machine-mode lines (JSON objects) turned back
 * into the human form (`warning: …`, `[debug] …`, `error: …`, a notice's
 * message), other lines left as they are. For tests about a message's words
 * whatever the output format.
 */
export function humanStderr(stderr: string): string {
  const prefix: Record<string, string> = { warning: 'warning: ', debug: '[debug] ', error: 'error: ' };
  return stderr
    .split('\n')
    .map((line) => {
      if (!line.startsWith('{')) return line;
      try {
        const { type, message } = JSON.parse(line) as { type?: string; message?: string };
        return typeof message === 'string' ? `${prefix[type ?? ''] ?? ''}${message}` : line;
      } catch {
        return line;
      }
    })
    .join('\n');
}
