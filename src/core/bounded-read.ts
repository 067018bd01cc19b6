// Reading a whole file the user named, or standard input, with a cap and an
// abort signal (CLI.md "answer size": a file given to `replay` or `-d @file`,
// a FIFO or /dev/zero included, is bounded; CLI.md "signals": reading stdin or
// a FIFO never makes a signal wait). fs.readFile on a FIFO opens it in a
// thread that waits for a writer, and on /dev/zero reads without end: the
// first ignored SIGTERM and two Ctrl-Cs (not even the exit can free that
// thread), the second reached 24 GB. Here:
//
// - the file is opened O_NONBLOCK, so a FIFO is opened at once;
// - a FIFO, a socket or a terminal is read through the event loop (as Node
//   reads a piped stdin), so waiting for its writer, or for a line typed,
//   holds no thread and the signal ends it (a thread of the pool left
//   waiting would hold the exit too: process.exit() joins them);
// - anything else (a regular file, a device) is read in chunks, the signal
//   checked between them; a device with nothing to give (EAGAIN) is polled;
// - past `maxBytes` the read stops and the file is refused, naming it and the cap.
import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { isatty, ReadStream as TtyReadStream } from 'node:tty';
import { promisify } from 'node:util';
import { Interrupted, UsageError } from './errors.js';

const openAsync = promisify(open);
const fstatAsync = promisify(fstat);
const readAsync = promisify(read);
const closeAsync = promisify(close);

const CHUNK_BYTES = 256 * 1024;
/** How often a device that has nothing to give yet (EAGAIN) is asked again. */
const POLL_MS = 25;

export interface BoundedReadOptions {
  /** The most bytes taken; one more and the read is refused. */
  maxBytes: number;
  /** Ends the read at once with Interrupted (exit 130). */
  signal?: AbortSignal;
  /** Says what the cap is, after the size: "10 MiB, the largest delivery". */
  limit: string;
  /** How messages name the source: the path as the user gave it, or "stdin". */
  name: string;
}

/** A file or stream over its cap (exit 2): "<name> is larger than <limit>". */
export class TooLargeInputError extends UsageError {
  constructor(name: string, limit: string) {
    super(`${name} is larger than ${limit}`);
    this.name = 'TooLargeInputError';
  }
}

/**
 * Reads the file at `path` whole. Errors of the file system (ENOENT, EACCES,
 * EISDIR for a directory) are thrown as they are, for the caller's words.
 */
export async function readFileBounded(path: string, options: BoundedReadOptions): Promise<Buffer> {
  return (await readNamedInput(path, options)).data;
}

/** readFileBounded, saying too whether the file was a regular one (which can be read again; a pipe cannot). */
export async function readNamedInput(path: string, options: BoundedReadOptions): Promise<{ data: Buffer; regularFile: boolean }> {
  if (options.signal?.aborted) throw new Interrupted();
  // O_NONBLOCK: a FIFO is opened without waiting for its writer (a blocked
  // open holds a thread no interrupt can free); a regular file ignores it.
  const fd = await openAsync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let info: Stats;
  try {
    info = await fstatAsync(fd);
  } catch (error) {
    await closeAsync(fd).catch(() => undefined);
    throw error;
  }
  if (info.isDirectory()) {
    await closeAsync(fd).catch(() => undefined);
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR' });
  }
  let pipe: Readable | undefined;
  try {
    pipe = eventLoopStream(fd, info);
  } catch (error) {
    await closeAsync(fd).catch(() => undefined);
    throw error;
  }
  if (pipe) return { data: await readStreamBounded(pipe, options), regularFile: false };
  try {
    // A regular file says its size: one over the cap is refused before a byte is read.
    if (info.isFile() && info.size > options.maxBytes) throw new TooLargeInputError(options.name, options.limit);
    return { data: await readChunks(fd, options), regularFile: info.isFile() };
  } finally {
    await closeAsync(fd).catch(() => undefined);
  }
}

/**
 * The descriptor as a stream read through the event loop, when it must be:
 * a FIFO, a socket or a terminal (a read of which can wait for ever);
 * undefined for anything read in chunks. The stream owns the descriptor
 * from then on: destroy() closes it.
 */
export function eventLoopStream(fd: number, info: Stats): Readable | undefined {
  if (info.isFIFO() || info.isSocket()) return new Socket({ fd, readable: true, writable: false });
  if (info.isCharacterDevice() && isatty(fd)) return new TtyReadStream(fd);
  return undefined;
}

async function readChunks(fd: number, options: BoundedReadOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    if (options.signal?.aborted) throw new Interrupted();
    // One byte past the cap is enough to know the file is over it.
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, options.maxBytes + 1 - total));
    let bytesRead: number;
    try {
      ({ bytesRead } = await readAsync(fd, buffer, 0, buffer.length, null));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      await pause(POLL_MS, options.signal);
      continue;
    }
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > options.maxBytes) throw new TooLargeInputError(options.name, options.limit);
  }
}

/**
 * Reads a stream (standard input, a pipe) to its end, up to the cap; the
 * signal or the cap destroys it at once.
 */
export function readStreamBounded(stream: Readable, options: BoundedReadOptions): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (error: Error | undefined, value?: Buffer) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) {
        stream.destroy();
        reject(error);
      } else resolve(value!);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += bytes.length;
      if (total > options.maxBytes) return finish(new TooLargeInputError(options.name, options.limit));
      chunks.push(bytes);
    };
    const onEnd = () => finish(undefined, Buffer.concat(chunks, total));
    const onError = (error: Error) => finish(error);
    const onAbort = () => finish(new Interrupted());
    if (options.signal?.aborted) return finish(new Interrupted());
    options.signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
