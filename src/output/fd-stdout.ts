// Stdout written synchronously to its descriptor until a command starts, since
// building process.stdout for a pipe costs much of a group's help. A sync write
// to an unread pipe blocks signal handlers, so main() hands over to process.stdout
// as it arms them; EAGAIN hands over for good, EPIPE marks the writer errored.
import { fstatSync, writeSync } from 'node:fs';

/** Undefined on a terminal and on Windows (where Node writes a pipe synchronously): process.stdout then. */
export function descriptorStdout(open: () => NodeJS.WriteStream): FdStdout | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const st = fstatSync(1);
    if (st.isFile() || st.isFIFO() || st.isSocket()) return new FdStdout(1, open, !st.isFile());
  } catch {
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
    private readonly open: () => NodeJS.WriteStream,
    private readonly mayBlock = true,
  ) {}

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

  /** Hands over to process.stdout, whose 'drain' says when a full pipe has room; a file stays on its descriptor. */
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
