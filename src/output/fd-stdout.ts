// Stdout as its file descriptor, when it is a file or a pipe (not a terminal).
// process.stdout, first read, builds a stream for it: for a pipe a socket,
// with net and stream loaded and a handle made, which costs a run about as
// much as Node's own start-up of a few modules. On Linux and macOS Node writes
// to a file or a pipe synchronously anyway (SyncWriteStream, a blocking pipe),
// so writing to the descriptor is what process.stdout would do, less the
// stream. Measured with stdout a pipe, paired with the build before (medians
// of 25-41 interleaved rounds, 2026-11-26): `email campaigns --help` took
// 0.91x its time on Node 24 (1.70x -> 1.54x of `node -e 0`), 0.93x on 26,
// 0.99x on 22; a read, which loads net for undici anyway, 0.99-1.015x.
//
// A descriptor that would block (EAGAIN: a pipe a parent made non-blocking)
// hands over to process.stdout for good, from the byte not yet written; a
// failed write (EPIPE: the reader went away) marks the writer errored, which
// src/output/edges.ts turns into a closed stdout and a BrokenPipe, as it does
// for process.stdout.
import { writeSync } from 'node:fs';

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
   * Hands over to process.stdout now (src/output/edges.ts Writable): a
   * blocking write to a pipe nobody reads would stop the whole process, a
   * receiver included (issue 19.2: `webhooks listen` stopped answering).
   */
  writeAsynchronously(): void {
    if (!this.stream && !this.failed) this.handOver();
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
