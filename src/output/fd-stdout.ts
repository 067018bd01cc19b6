// Stdout as its file descriptor, when it is a file, a pipe or a socket (not a
// terminal), until a command starts. process.stdout, first read, builds a
// stream for it: for a pipe a socket, with net and stream loaded and a handle
// made, a large part of a group's help (bench/README.md); help is written
// synchronously to the descriptor instead, as Node would write a file anyway.
//
// A synchronous write to a pipe nobody reads blocks the process, and no
// signal handler can run meanwhile (CLI.md "signals": nothing makes a signal
// wait). So main() (src/cli.ts) arms its signal handlers only as a command
// starts, and at that moment hands this writer over to process.stdout
// (writeAsynchronously), which writes a pipe or a socket asynchronously:
// until then a signal takes Node's default action and ends the process even
// inside a write. test/e2e/stdout-fifo-signal.test.ts holds it to that.
//
// A descriptor that would block (EAGAIN: a pipe a parent made non-blocking)
// hands over to process.stdout for good, from the byte not yet written; a
// failed write (EPIPE: the reader went away) marks the writer errored, which
// src/output/edges.ts turns into a closed stdout and a BrokenPipe, as it does
// for process.stdout.
import { fstatSync, writeSync } from 'node:fs';

/**
 * Stdout written to its descriptor when it is a file, a pipe or a socket;
 * otherwise (a terminal, Windows, where Node writes a pipe synchronously)
 * undefined, for process.stdout.
 */
export function descriptorStdout(open: () => NodeJS.WriteStream): FdStdout | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const st = fstatSync(1);
    if (st.isFile() || st.isFIFO() || st.isSocket()) return new FdStdout(1, open, !st.isFile());
  } catch {
    // No stdout at all (closed): process.stdout deals with that as it always has.
  }
  return undefined;
}

export class FdStdout {
  private stream: NodeJS.WriteStream | undefined;
  private failed: Error | undefined;
  private readonly errorListeners: ((error: Error) => void)[] = [];
  readonly isTTY = false;
  readonly columns = undefined;

  constructor(
    private readonly fd: number,
    /** The stream to hand over to (process.stdout), built only then. */
    private readonly open: () => NodeJS.WriteStream,
    /** A pipe or a socket, whose reader may never read; a file always takes a write. */
    private readonly mayBlock = true,
  ) {}

  /** The stream handed over to, if it came to that. */
  get handedOver(): NodeJS.WriteStream | undefined {
    return this.stream;
  }

  get errored(): Error | null {
    return this.stream ? this.stream.errored : (this.failed ?? null);
  }

  get destroyed(): boolean {
    return this.stream ? this.stream.destroyed : this.failed !== undefined;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.stream) return this.stream.write(chunk);
    if (this.failed) return true;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return this.handOver().write(bytes.subarray(done));
      this.failed = err as Error;
    }
    return true;
  }

  /**
   * Hands over to process.stdout now (src/output/edges.ts Writable), whose
   * 'drain' tells a writer when a full pipe has room (webhooks listen); a
   * file stays written to its descriptor, which never waits for a reader.
   */
  writeAsynchronously(): void {
    if (this.mayBlock && !this.stream && !this.failed) this.handOver();
  }

  once(event: 'drain', listener: () => void): this {
    if (this.stream) this.stream.once(event, listener);
    else queueMicrotask(listener);
    return this;
  }

  on(event: 'error', listener: (error: Error) => void): this {
    this.errorListeners.push(listener);
    this.stream?.on(event, listener);
    return this;
  }

  private handOver(): NodeJS.WriteStream {
    this.stream = this.open();
    for (const listener of this.errorListeners) this.stream.on('error', listener);
    return this.stream;
  }
}
