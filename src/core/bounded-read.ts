// A whole file the user named, or stdin, read with a cap and a signal (CLI.md "answer size",
// "signals"). fs.readFile waits on a FIFO in a thread no signal can free, and reads /dev/zero
// without end; here a FIFO, socket or terminal is read through the event loop, anything else in
// chunks with the signal checked between them.
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
/** A device with nothing to give yet (EAGAIN) is polled. */
const POLL_MS = 25;

export interface BoundedReadOptions {
  maxBytes: number;
  signal?: AbortSignal;
  /** Follows the size in messages, naming what the cap is for. */
  limit: string;
  name: string;
}

export class TooLargeInputError extends UsageError {
  constructor(name: string, limit: string) {
    super(`${name} is larger than ${limit}`);
    this.name = 'TooLargeInputError';
  }
}

/** File system errors are thrown as they are, for the caller's words. */
export async function readFileBounded(path: string, options: BoundedReadOptions): Promise<Buffer> {
  return (await readNamedInput(path, options)).data;
}

/** Also says whether the file can be read again (a pipe cannot). */
export async function readNamedInput(path: string, options: BoundedReadOptions): Promise<{ data: Buffer; regularFile: boolean }> {
  if (options.signal?.aborted) throw new Interrupted();
  // O_NONBLOCK: a blocked open of a FIFO would hold a thread no interrupt can free.
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
    if (info.isFile() && info.size > options.maxBytes) throw new TooLargeInputError(options.name, options.limit);
    return { data: await readChunks(fd, options), regularFile: info.isFile() };
  } finally {
    await closeAsync(fd).catch(() => undefined);
  }
}

/** A FIFO, socket or terminal, whose read can wait for ever; the stream owns the descriptor from then on. */
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
