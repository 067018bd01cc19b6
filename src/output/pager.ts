// The pager: output taller than the terminal goes through EMAIL_PAGER, PAGER,
// the stored pager, else `less -FRX`. It sits under edges.ts's guarded stdout:
// a pager quit early is a reader that went away (exit 0, as `| head`); one that
// cannot run loses nothing (held output goes to the terminal, after a warning).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable as NodeWritable } from 'node:stream';
import { storedPagerCommand } from '../core/profile-defaults.js';

const DEFAULT_PAGER = 'less -FRX';

const FALLBACK_ROWS = 24;

/** The pager command in effect, or undefined when paging is off; `stored` is asked after the variables. */
export function pagerCommand(env: Readonly<Record<string, string | undefined>>, stored?: () => string | undefined): string | undefined {
  const fromEnv = env.EMAIL_PAGER ?? env.PAGER;
  const fromProfile = fromEnv === undefined ? stored?.() : undefined;
  if (fromProfile !== undefined) return storedPagerCommand(fromProfile);
  const chosen = fromEnv ?? DEFAULT_PAGER;
  const trimmed = chosen.trim();
  if (trimmed === '' || trimmed === 'cat') return undefined;
  return trimmed;
}

export interface TerminalStream {
  write(chunk: string | Uint8Array): boolean;
  isTTY?: boolean;
  rows?: number;
}

/** Bytes the pager must take before it surely read: more than any pipe holds unread. Until then output is kept. */
const REPLAY_LIMIT = 1024 * 1024;

export class PagedStdout {
  private held: (string | Uint8Array)[] = [];
  private lines = 0;
  private child?: ChildProcess;
  private stdin?: NodeWritable;
  private exited?: Promise<void>;
  private ending = false;
  private failed = false;
  private direct = false;
  private pipeGone = false;
  private replay: (string | Uint8Array)[] | undefined = [];
  private written = 0;
  private readonly errorListeners: ((error: Error) => void)[] = [];
  private readonly drainWaiters = new Set<() => void>();

  constructor(
    private readonly terminal: TerminalStream,
    private readonly command: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
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
    // One row is the shell's prompt after it.
    if (this.lines >= rows) this.start();
    return true;
  }

  /** Output without end from now on (a pager would hold it back): what is held goes to the terminal. */
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
    // So that finish() never returns before the output is shown.
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
    // The pager quit or never ran; its exit status tells which.
    child.stdin!.on('error', () => (this.pipeGone = true));
    const held = this.held;
    this.held = [];
    for (const chunk of held) {
      this.keep(chunk);
      child.stdin!.write(chunk);
    }
  }

  /** The pager ended: exit 0 or a signal is a quit; non-zero before it surely read means what it never showed goes to the terminal. */
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
