// The pager (CLI.md "pager"): output written to a terminal that is taller than
// the terminal goes through EMAIL_PAGER, else PAGER, else the profile's
// stored pager (`email config set pager`, "none" for off), else `less -FRX`.
// `--no-pager`, EMAIL_PAGER=cat (or empty) turn it off, and it is never used
// when stdout is not a terminal.
//
// The pager is stdout's reader, so it sits under the guarded stdout of
// edges.ts: what the program writes is held back until it is taller than the
// terminal (short output is written as is, without starting anything), then
// the pager starts, gets what was held and everything after, as it comes:
// a streamed listing (`--all`) streams into it. A pager that exits before the
// end (q in less) is a reader that went away: the guarded stdout closes, the
// command's signal aborts, no further request starts, and the command ends
// with exit 0, as with `| head`. A pager that cannot run (not found: exit 127,
// not executable: 126, or non-zero before it read anything, as `false`) loses
// nothing: what it was given goes to the terminal itself, after one warning
// naming it, and so does the rest (CLI.md "pager").
//
// A pager is for finite output: output without end (`webhooks listen`, whose
// stream says so: unpaged()) goes to the terminal as it comes, since a pager
// would hold it back until the command ends or the screen is full.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable as NodeWritable } from 'node:stream';
import { storedPagerCommand } from '../core/profile-defaults.js';

const DEFAULT_PAGER = 'less -FRX';

/** Rows assumed when the terminal does not say (a pty without a size). */
const FALLBACK_ROWS = 24;

/** The pager command in effect, or undefined when paging is off. `stored`: the profile's (`email config set pager`), after the variables. */
export function pagerCommand(env: Readonly<Record<string, string | undefined>>, stored?: () => string | undefined): string | undefined {
  const fromEnv = env.EMAIL_PAGER ?? env.PAGER;
  const fromProfile = fromEnv === undefined ? stored?.() : undefined;
  if (fromProfile !== undefined) return storedPagerCommand(fromProfile);
  const chosen = fromEnv ?? DEFAULT_PAGER;
  const trimmed = chosen.trim();
  if (trimmed === '' || trimmed === 'cat') return undefined;
  return trimmed;
}

/** What the pager needs of the real stdout. */
export interface TerminalStream {
  write(chunk: string | Uint8Array): boolean;
  isTTY?: boolean;
  rows?: number;
}

/**
 * Bytes the pager must have taken from its pipe before it counts as reading:
 * more than any pipe holds unread (Linux's largest by default, 1 MiB). Until
 * then what was written to it is kept, so that a pager that could not run
 * loses nothing.
 */
const REPLAY_LIMIT = 1024 * 1024;

/** A stand-in for stdout that pages what is written to it once it is taller than the terminal. */
export class PagedStdout {
  private held: (string | Uint8Array)[] = [];
  private lines = 0;
  private child?: ChildProcess;
  private stdin?: NodeWritable;
  private exited?: Promise<void>;
  private ending = false;
  private failed = false;
  /** The pager could not run: writes go to the terminal itself. */
  private direct = false;
  /** Its pipe broke; whether it failed or was quit is known at its exit. */
  private pipeGone = false;
  /** What was written to the pager while it may not have read it; dropped once it has surely read (REPLAY_LIMIT). */
  private replay: (string | Uint8Array)[] | undefined = [];
  private written = 0;
  private readonly errorListeners: ((error: Error) => void)[] = [];
  private readonly drainWaiters = new Set<() => void>();

  constructor(
    private readonly terminal: TerminalStream,
    private readonly command: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
    /** One line on stderr (already ending in a line break). */
    private readonly warn: (line: string) => void = () => undefined,
  ) {}

  get errored(): boolean {
    return this.failed;
  }

  get destroyed(): boolean {
    return this.failed;
  }

  get isTTY(): boolean | undefined {
    return this.terminal.isTTY;
  }

  get columns(): number | undefined {
    return (this.terminal as { columns?: number }).columns;
  }

  /** Whether a pager was started (for tests and the end of the command). */
  get paging(): boolean {
    return this.child !== undefined;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.failed) return true;
    if (this.direct) return this.terminal.write(chunk);
    if (this.stdin) {
      this.keep(chunk);
      if (this.pipeGone) return true;
      return this.stdin.write(chunk);
    }
    this.held.push(chunk);
    this.lines += countLines(chunk);
    const rows = this.terminal.rows || FALLBACK_ROWS;
    // Taller than the terminal (one row is the shell's prompt after it): page it.
    if (this.lines >= rows) this.start();
    return true;
  }

  /** Output without end from now on: what is held goes to the terminal, and so does the rest; a pager already started keeps what it has. */
  unpaged(): void {
    if (this.child || this.direct || this.failed) return;
    this.direct = true;
    const held = this.held;
    this.held = [];
    for (const chunk of held) this.terminal.write(chunk);
  }

  on(_event: 'error', listener: (error: Error) => void): this {
    this.errorListeners.push(listener);
    return this;
  }

  once(_event: 'drain', listener: () => void): this {
    const terminal = this.terminal as TerminalStream & { once?(event: 'drain', listener: () => void): unknown };
    if (this.direct && terminal.once) terminal.once('drain', listener);
    else if (this.stdin && !this.failed && !this.direct && !this.pipeGone) {
      // Released by couldNotRun() too: a pager that dies never drains.
      const fire = () => {
        if (!this.drainWaiters.delete(fire)) return;
        this.stdin!.off('drain', fire);
        listener();
      };
      this.drainWaiters.add(fire);
      this.stdin.once('drain', fire);
    } else queueMicrotask(listener);
    return this;
  }

  /** At the end of the command: writes what is held, or lets the pager read to the end and waits until it is closed. */
  async finish(): Promise<void> {
    this.ending = true;
    if (!this.child) {
      const held = this.held;
      this.held = [];
      for (const chunk of held) this.terminal.write(chunk);
      return;
    }
    if (!this.failed && !this.direct && !this.pipeGone) this.stdin?.end();
    await this.exited;
  }

  private start(): void {
    const child = spawn(this.command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { ...this.env } as NodeJS.ProcessEnv });
    this.child = child;
    this.stdin = child.stdin!;
    // Settled once the pager's fate is decided, so that finish() never returns before the output is shown.
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.ended(code, signal);
        resolve();
      });
      child.once('error', (error) => {
        this.couldNotRun(`could not start (${error.message})`);
        resolve();
      });
    });
    // A broken pipe: the pager quit (q in less) or never ran; its exit status tells which.
    child.stdin!.on('error', () => (this.pipeGone = true));
    const held = this.held;
    this.held = [];
    for (const chunk of held) {
      this.keep(chunk);
      child.stdin!.write(chunk);
    }
  }

  /**
   * The pager ended. Exit 0 or a signal: it was quit, a reader that went away
   * (or, at the end, it showed everything). Non-zero while it may not have
   * read what it was given (127 not found, 126 not executable, `false`): what
   * it never showed goes to the terminal, after a warning naming it.
   */
  private ended(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.direct || this.failed) return;
    if (code !== null && code !== 0 && this.replay) {
      const why = code === 127 || code === 126 ? `could not start (exit ${code})` : `exited with ${code} before reading the output`;
      this.couldNotRun(why);
      return;
    }
    if (!this.ending || signal !== null) this.fail();
  }

  private couldNotRun(why: string): void {
    if (this.direct || this.failed) return;
    this.direct = true;
    const replay = this.replay ?? [];
    this.replay = undefined;
    this.warn(`warning: the pager "${this.command}" ${why}; the output follows without it (set EMAIL_PAGER, or --no-pager)\n`);
    for (const chunk of replay) this.terminal.write(chunk);
    for (const fire of [...this.drainWaiters]) queueMicrotask(fire);
  }

  /** Keeps what the pager is given until it has surely read some of it (more than a pipe holds). */
  private keep(chunk: string | Uint8Array): void {
    if (!this.replay) return;
    this.replay.push(chunk);
    this.written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (this.written - (this.stdin?.writableLength ?? 0) > REPLAY_LIMIT) this.replay = undefined;
  }

  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    const error = new Error('the pager exited');
    for (const listener of this.errorListeners) listener(error);
  }
}

function countLines(chunk: string | Uint8Array): number {
  let n = 0;
  if (typeof chunk === 'string') {
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) n++;
  } else {
    for (const byte of chunk) if (byte === 10) n++;
  }
  return n;
}
