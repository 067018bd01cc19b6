// The one object a command receives. Commands touch nothing global: no
// console, process.env, process.exit or process.stdout outside src/cli.ts and
// this file (ENGINEERING.md habit 2). Tests build a Context with injected IO.
import type { Readable } from 'node:stream';
import type { ApiClient } from './core/http.js';
import type { Output } from './output/render.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

export interface Writable {
  write(chunk: string | Uint8Array): boolean;
  once?(event: 'drain', listener: () => void): unknown;
  /** True once the reader went away (src/output/edges.ts): nothing more can be written. */
  readonly closed?: boolean;
}

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width for tables; undefined when not a TTY. */
  columns?: number;
}

/** Options every command has (CLI.md "Global behaviour"). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  insecureHttp: boolean;
  output: OutputFormat;
  quiet: boolean;
  debug: boolean;
  color: boolean;
  /** False with --no-pager (CLI.md "pager"). */
  pager: boolean;
  /** Per-request timeout given with --timeout, in milliseconds. */
  timeoutMs?: number;
}

export interface Logger {
  /** Progress-like chatter and hints: stderr, suppressed by --quiet. */
  info(message: string): void;
  /** Warnings: stderr, always shown. */
  warn(message: string): void;
  /** --debug traces: stderr, only with --debug. Never pass a secret here. */
  debug(message: string): void;
}

export interface Prompt {
  /** Reads a line without echo from the TTY. */
  secret(question: string): Promise<string>;
  /** Yes/no question on the TTY; false unless the user answers yes. */
  confirm(question: string): Promise<boolean>;
}

export interface Context {
  io: IO;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  globals: GlobalOptions;
  /**
   * Aborted at the first Ctrl-C (SIGINT), or when the reader of stdout went
   * away (its reason is then a BrokenPipe, src/output/edges.ts): either way
   * the command stops starting work.
   */
  signal: AbortSignal;
  /**
   * Registers a handler for Ctrl-C; while at least one handler is
   * registered the default behaviour (abort `signal` and exit 130) is replaced by the handlers.
   * Returns a function that unregisters it.
   */
  onInterrupt(handler: (count: number) => void): () => void;
  log: Logger;
  out: Output;
  prompt: Prompt;
  /**
   * The authenticated client, created on first use; throws AuthError when no key is configured.
   * `connections` sizes its keep-alive pool (default DEFAULT_CONNECTIONS, core/http.ts); the first call decides.
   */
  api(options?: { connections?: number }): Promise<ApiClient>;
  /** A client for explicit credentials (auth login/status, doctor), with the same debug, timeouts and abort. */
  apiWith(credentials: { baseUrl: string; apiKey: string }): Promise<ApiClient>;
  now(): Date;
}
