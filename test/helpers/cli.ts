// Runs the CLI the two ways our users' scripts meet it: in-process through
// run() with injected IO (fast, for command tests), or as a real `bin/email`
// subprocess (end-to-end, exactly as a CI script would).
import { spawn } from 'node:child_process';
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

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdinIsTTY?: boolean;
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
      columns: options.stdoutIsTTY ? 120 : undefined,
    },
    env: { EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal,
    prompt: options.prompt,
  });
  return { code, stdout, stderr };
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  cwd?: string;
  timeoutMs?: number;
}

/** Spawns `bin/email <argv>` (the built bundle: `npm test` builds first). */
export function spawnCli(argv: string[], options: SpawnOptions = {}): Promise<CliResult> {
  requireBuild();
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    // The developer's own EMAIL_* settings must not leak into a test.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR'));
    for (const [k, v] of Object.entries({ ...inherited, EMAIL_RETRY_BASE_MS: '5', ...options.env })) {
      if (v !== undefined) env[k] = v;
    }
    if (!options.env || !('EMAIL_CONFIG_DIR' in options.env)) env.EMAIL_CONFIG_DIR = tempConfigDir();
    const child = spawn(process.execPath, [BIN, ...argv], { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`email ${argv.join(' ')} did not finish in ${options.timeoutMs ?? 20_000} ms\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
