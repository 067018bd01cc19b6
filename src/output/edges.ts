// The process's edges (ENGINEERING.md habit 11): everything the program writes
// to stdout and stderr goes through the two guarded streams made here, so what
// happens at them is decided once.
//
// - stderr carries untrusted text (service messages, webhook senders' data,
//   cells of users' files) inside our messages: every write is neutralised
//   (CLI.md "untrusted text"), line breaks kept. Decorations of our own (the
//   spinner) are drawn on `raw`, after their text was neutralised.
// - A reader of stdout that goes away (`email … | head -1`: EPIPE) closes
//   stdout for good: later writes are dropped, writers waiting for 'drain' are
//   released, and the command's signal aborts with a BrokenPipe reason, so
//   requests in flight stop and no new ones start. src/cli.ts turns that into
//   exit 0 with nothing printed (CLI.md "broken pipe").
// - A closed stderr is dropped the same way, without stopping the command.
// - After a signal, a stdout that takes nothing gets OUTPUT_GRACE_MS; then it
//   is given up (CLI.md "signals": nothing makes a signal wait, an output
//   nobody reads included): writers waiting for 'drain' are released, later
//   writes dropped, and the command ends as interrupted, not as a broken pipe.
// - Stderr never blocks and never grows past STDERR_QUEUE_BYTES: while that
//   much waits for a reader that does not read, lines are left out and
//   counted, and the count is said once there is room (or at the end).
// - Neither stream's 'error' event can go unhandled (Node would crash with a
//   stack trace).
//
// Stdout is passed through with the key masked (src/output/key-mask.ts) and
// nothing else changed: each format decides what a terminal gets
// (src/output/render.ts). The pager (CLI.md "pager") belongs here as well.
import type { Readable } from 'node:stream';
import { OUTPUT_GRACE_MS } from '../core/interrupts.js';
import { keyMask } from './key-mask.js';
import { machineLine, machineLines } from './messages.js';
import { neutralizeLines } from './sanitize.js';
import type { Writable } from './writable.js';

export type { Writable } from './writable.js';

export interface IO {
  stdout: Writable;
  /** A getter in main(): Node creates process.stderr when it is first read (see there). */
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width for tables; undefined when not a TTY. */
  columns?: number;
}

/** The reason the command's signal aborts with when the reader of stdout went away; also what writes to it reject with. */
export class BrokenPipe extends Error {
  constructor() {
    super('the reader of standard output went away');
    this.name = 'BrokenPipe';
  }
}

export function isBrokenPipe(value: unknown): value is BrokenPipe {
  return value instanceof BrokenPipe;
}

/** Bytes stderr may hold for a reader that does not read before lines are left out (a line is at most a few hundred bytes). */
export const STDERR_QUEUE_BYTES = 1024 * 1024;

/** What the guards need of a real stream (process.stdout) or an injected one (tests). */
interface RawStream extends Writable {
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Bytes written and not yet taken by the reader (a pipe's queue). */
  writableLength?: number;
  errored?: unknown;
  destroyed?: boolean;
  columns?: number;
  isTTY?: boolean;
}

/** One end of the process: writes go through `filter`; a failed or closed stream swallows what follows. */
class GuardedStream implements Writable {
  private isClosed = false;
  private givenUp = false;
  private readonly drainWaiters = new Set<() => void>();
  private stream: RawStream | undefined;
  /** Lines left out while the queue was past the bound, not yet reported. */
  private dropped = 0;
  /** Set for stderr: the bound and the line that reports what was left out. */
  private bound: { bytes: number; report: (lines: number) => string } | undefined;

  constructor(
    /** The stream, or how to get it when it is first written to (main() gives process.stderr so: see there). */
    private readonly open: RawStream | (() => RawStream),
    private filter: (text: string) => string,
    private readonly onClosed: () => void,
  ) {
    if (typeof open !== 'function') this.use(open);
  }

  /** The stream itself, for what must draw on it directly (ora's spinner). */
  get raw(): RawStream {
    if (!this.stream) this.use((this.open as () => RawStream)());
    return this.stream!;
  }

  /** What is written passes through `filter` from now on (machine mode's stderr). */
  filterWith(filter: (text: string) => string): void {
    this.filter = filter;
  }

  /** Writes go to `reader` from now on (the pager, which writes to the stream itself). */
  readThrough(reader: RawStream): void {
    this.use(reader);
  }

  private use(stream: RawStream): void {
    this.stream = stream;
    stream.on?.('error', () => this.close());
  }

  /** True once the stream failed (EPIPE, the reader went away) or was given up: nothing more is written. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** True once giveUp() closed it: its reader may still be there, it took nothing in time. */
  get givenUpOn(): boolean {
    return this.givenUp;
  }

  /** Stops waiting for a reader that takes nothing (after a signal's grace); nothing more is written. */
  giveUp(): void {
    if (this.isClosed) return;
    this.givenUp = true;
    this.close();
  }

  get columns(): number | undefined {
    return this.raw.columns;
  }

  get isTTY(): boolean | undefined {
    return this.raw.isTTY;
  }

  /** Writes are left out (and counted) while more than `bytes` wait for the reader; unbound() ends that. */
  dropPast(bytes: number, report: (lines: number) => string): void {
    this.bound = { bytes, report };
  }

  /** From now on nothing is left out (the command is over: its last lines, the error among them); says what was. */
  unbound(): void {
    this.reportDropped();
    this.bound = undefined;
  }

  private reportDropped(): void {
    if (!this.dropped || !this.bound) return;
    const lines = this.dropped;
    this.dropped = 0;
    this.writeNow(this.bound.report(lines));
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.isClosed) return true;
    if (this.bound) {
      if ((this.raw.writableLength ?? 0) > this.bound.bytes) {
        this.dropped += typeof chunk === 'string' ? Math.max(1, chunk.split('\n').length - 1) : 1;
        return true;
      }
      this.reportDropped();
    }
    return this.writeNow(chunk);
  }

  private writeNow(chunk: string | Uint8Array): boolean {
    if (this.isClosed) return true;
    let ok: boolean;
    try {
      ok = this.raw.write(typeof chunk === 'string' ? this.filter(chunk) : chunk);
    } catch {
      // A destroyed stream may throw at once.
      this.close();
      return true;
    }
    // A pipe whose reader has gone fails the write at once (EPIPE), and the
    // stream is marked errored before its 'error' event: stop now, before
    // the command starts more work.
    if (this.raw.errored || this.raw.destroyed) {
      this.close();
      return true;
    }
    return ok;
  }

  writeAsynchronously(): void {
    this.raw.writeAsynchronously?.();
  }

  unpaged(): void {
    this.raw.unpaged?.();
  }

  once(_event: 'drain', listener: () => void): this {
    if (this.isClosed || !this.raw.once) {
      queueMicrotask(listener);
      return this;
    }
    let fired = false;
    const fire = () => {
      if (fired) return;
      fired = true;
      this.drainWaiters.delete(fire);
      listener();
    };
    this.drainWaiters.add(fire);
    this.raw.once('drain', fire);
    return this;
  }

  private close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    // Whoever waits for 'drain' would wait for ever: release them (they find the stream closed).
    for (const fire of [...this.drainWaiters]) fire();
    this.onClosed();
  }
}

export interface PagerSettings {
  /** False with --no-pager. */
  enabled: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** The profile's stored pager (`email config set pager`), asked only when neither EMAIL_PAGER nor PAGER is set. */
  stored?: () => string | undefined;
}

export interface Edges {
  /** The command's IO with both output streams guarded. */
  io: IO;
  stdout: GuardedStream;
  stderr: GuardedStream;
  /** Aborts on Ctrl-C (the reason `interrupt` gives) or when stdout's reader goes away (a BrokenPipe). */
  signal: AbortSignal;
  /** The reader of stdout went away: the command ends with exit 0 and prints nothing more. */
  readonly stdoutClosed: boolean;
  /**
   * Pages stdout from now on when it is a terminal and paging is on
   * (src/output/pager.ts; loaded only then).
   */
  usePager(settings: PagerSettings): Promise<void>;
  /**
   * Machine mode (CLI.md "machine mode"): from now on every line written to
   * stderr is one JSON object; a line that is not becomes a `notice` holding
   * it (src/output/messages.ts machineLines), so no writer can break the rule.
   */
  machineStderr(): void;
  /** True once machineStderr() was called. */
  readonly machine: boolean;
  /** At the end of the command: what the pager holds is written, or the pager is waited for. */
  finish(): Promise<void>;
}

/** `redactKeys` masks the key in every form (src/core/redact.ts): on stdout in 2xx data too, and on stderr past every writer. */
export function createEdges(io: IO, interrupt?: AbortSignal, redactKeys: (text: string) => string = (text) => text): Edges {
  const pipe = new AbortController();
  const mask = keyMask(redactKeys);
  const stdout = new GuardedStream(io.stdout, mask.filter, () => pipe.abort(new BrokenPipe()));
  interrupt?.addEventListener(
    'abort',
    () => {
      // Unref'd: a command that ends sooner does not wait for it.
      setTimeout(() => stdout.giveUp(), OUTPUT_GRACE_MS).unref?.();
    },
    { once: true },
  );
  // main() gives stderr as a getter, read when first written to: a command
  // that writes nothing there never creates process.stderr.
  const lazyStderr = Object.getOwnPropertyDescriptor(io, 'stderr')?.get !== undefined;
  const stderr = new GuardedStream(lazyStderr ? () => io.stderr : io.stderr, (text) => neutralizeLines(redactKeys(text)), () => undefined);
  let pager: { finish(): Promise<void> } | undefined;
  let machine: ReturnType<typeof machineLines> | undefined;
  stderr.dropPast(STDERR_QUEUE_BYTES, (lines) => {
    const message = `${lines} line${lines === 1 ? '' : 's'} of messages left out: standard error was not being read`;
    // Written past the machine-mode filter's wrapping as a warning of its own, with the count as a number.
    return machine ? `${machineLine({ type: 'warning', message, dropped: lines })}\n` : `warning: ${message}\n`;
  });
  return {
    // Inherits from io rather than copying it: a copy would read main()'s getters.
    io: Object.create(io, { stdout: { value: stdout, enumerable: true }, stderr: { value: stderr, enumerable: true } }) as IO,
    stdout,
    stderr,
    signal: interrupt ? AbortSignal.any([interrupt, pipe.signal]) : pipe.signal,
    get stdoutClosed() {
      return stdout.closed && !stdout.givenUpOn;
    },
    async usePager(settings) {
      // The real stream must be a terminal (process.stdout.isTTY); an injected stdout never is paged.
      const terminal = io.stdout as RawStream & { rows?: number };
      if (!settings.enabled || pager || terminal.isTTY !== true) return;
      const { PagedStdout, pagerCommand } = await import('./pager.js');
      const command = pagerCommand(settings.env, settings.stored);
      if (!command) return;
      const paged = new PagedStdout(terminal, command, settings.env, (line) => void stderr.write(line));
      pager = paged;
      stdout.readThrough(paged);
    },
    machineStderr() {
      if (machine) return;
      const lines = (machine = machineLines());
      // Every line leaves as JSON (controls escaped inside its strings): nothing is left for neutralizeLines.
      stderr.filterWith((text) => lines.filter(redactKeys(text)));
    },
    get machine() {
      return machine !== undefined;
    },
    async finish() {
      const held = mask.end();
      if (held) stdout.write(held);
      await pager?.finish();
      const rest = machine?.flush();
      if (rest) stderr.write(rest);
      stderr.unbound();
    },
  };
}
