// The pager (CLI.md "pager"): output written to a terminal that is taller than
// the terminal goes through EMAIL_PAGER, else PAGER, else `less -FRX`.
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
// with exit 0, as with `| head`.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable as NodeWritable } from 'node:stream';

const DEFAULT_PAGER = 'less -FRX';

/** Rows assumed when the terminal does not say (a pty without a size). */
const FALLBACK_ROWS = 24;

/** The pager command in effect, or undefined when paging is off. */
export function pagerCommand(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const chosen = env.EMAIL_PAGER ?? env.PAGER ?? DEFAULT_PAGER;
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

/** A stand-in for stdout that pages what is written to it once it is taller than the terminal. */
export class PagedStdout {
  private held: (string | Uint8Array)[] = [];
  private lines = 0;
  private child?: ChildProcess;
  private stdin?: NodeWritable;
  private exited?: Promise<void>;
  private ending = false;
  private failed = false;
  private readonly errorListeners: ((error: Error) => void)[] = [];

  constructor(
    private readonly terminal: TerminalStream,
    private readonly command: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
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
    if (this.stdin) return this.stdin.write(chunk);
    this.held.push(chunk);
    this.lines += countLines(chunk);
    const rows = this.terminal.rows || FALLBACK_ROWS;
    // Taller than the terminal (one row is the shell's prompt after it): page it.
    if (this.lines >= rows) this.start();
    return true;
  }

  on(_event: 'error', listener: (error: Error) => void): this {
    this.errorListeners.push(listener);
    return this;
  }

  once(_event: 'drain', listener: () => void): this {
    if (this.stdin && !this.failed) this.stdin.once('drain', listener);
    else queueMicrotask(listener);
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
    if (!this.failed) this.stdin?.end();
    await this.exited;
  }

  private start(): void {
    const child = spawn(this.command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { ...this.env } as NodeJS.ProcessEnv });
    this.child = child;
    this.stdin = child.stdin!;
    this.exited = new Promise((resolve) => {
      child.once('close', () => resolve());
      child.once('error', () => resolve());
    });
    // The pager went away before reading everything (q in less), or never started: the reader is gone.
    child.stdin!.on('error', () => this.fail());
    child.once('exit', () => {
      if (!this.ending) this.fail();
    });
    child.once('error', () => this.fail());
    const held = this.held;
    this.held = [];
    for (const chunk of held) child.stdin!.write(chunk);
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
