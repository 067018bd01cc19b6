// The process's edges: all stdout and stderr goes through the two guarded
// streams made here. Stderr is neutralised (it carries untrusted text), bounded
// and never blocks; a reader of stdout that goes away (EPIPE) aborts the command
// as a broken pipe; after a signal a stdout that takes nothing is given up.
import type { Readable } from 'node:stream';
import { OUTPUT_GRACE_MS } from '../core/interrupts.js';
import { keyMask } from './key-mask.js';
import { machineLine, machineLines } from './messages.js';
import { neutralizeLines } from './sanitize.js';
import { BrokenPipe } from '../core/errors.js';
import type { Writable } from './writable.js';

export { BrokenPipe, isBrokenPipe } from '../core/errors.js';

export type { Writable } from './writable.js';

export interface IO {
  stdout: Writable;
  /** A getter in main(): Node creates process.stderr when it is first read (see there). */
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  columns?: number;
}

export const STDERR_QUEUE_BYTES = 1024 * 1024;

interface RawStream extends Writable {
  on?(event: 'error', listener: (error: Error) => void): unknown;
  writableLength?: number;
  errored?: unknown;
  destroyed?: boolean;
  columns?: number;
  isTTY?: boolean;
}

class GuardedStream implements Writable {
  private isClosed = false;
  private givenUp = false;
  private readonly drainWaiters = new Set<() => void>();
  private stream: RawStream | undefined;
  private dropped = 0;
  private bound: { bytes: number; report: (lines: number) => string } | undefined;

  constructor(
    /** Or how to get it when first written to (main() gives process.stderr so). */
    private readonly open: RawStream | (() => RawStream),
    private filter: (text: string) => string,
    private readonly onClosed: () => void,
  ) {
    if (typeof open !== 'function') this.use(open);
  }

  /** For what must draw on the stream directly (ora's spinner). */
  get raw(): RawStream {
    if (!this.stream) this.use((this.open as () => RawStream)());
    return this.stream!;
  }

  filterWith(filter: (text: string) => string): void {
    this.filter = filter;
  }

  readThrough(reader: RawStream): void {
    this.use(reader);
  }

  private use(stream: RawStream): void {
    this.stream = stream;
    stream.on?.('error', () => this.close());
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get givenUpOn(): boolean {
    return this.givenUp;
  }

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

  dropPast(bytes: number, report: (lines: number) => string): void {
    this.bound = { bytes, report };
  }

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
    // A pipe whose reader has gone fails the write at once, before its
    // 'error' event: stop now, before the command starts more work.
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
    // Whoever waits for 'drain' would wait for ever: release them.
    for (const fire of [...this.drainWaiters]) fire();
    this.onClosed();
  }
}

export interface PagerSettings {
  enabled: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** Asked only when neither EMAIL_PAGER nor PAGER is set. */
  stored?: () => string | undefined;
}

export interface Edges {
  io: IO;
  stdout: GuardedStream;
  stderr: GuardedStream;
  signal: AbortSignal;
  readonly stdoutClosed: boolean;
  usePager(settings: PagerSettings): Promise<void>;
  /** Machine mode: from now on every stderr line is one JSON object; other lines become a `notice`. */
  machineStderr(): void;
  readonly machine: boolean;
  finish(): Promise<void>;
}

/** `redactKeys` masks the key in every form: on stdout in 2xx data too, and on stderr past every writer. */
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
  // A getter, read when first written to: a command that writes nothing there never creates process.stderr.
  const lazyStderr = Object.getOwnPropertyDescriptor(io, 'stderr')?.get !== undefined;
  const stderr = new GuardedStream(lazyStderr ? () => io.stderr : io.stderr, (text) => neutralizeLines(redactKeys(text)), () => undefined);
  let pager: { finish(): Promise<void> } | undefined;
  let machine: ReturnType<typeof machineLines> | undefined;
  stderr.dropPast(STDERR_QUEUE_BYTES, (lines) => {
    const message = `${lines} line${lines === 1 ? '' : 's'} of messages left out: standard error was not being read`;
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
