// The one rule for a path the user gives to write (--failures, --journal, --save's folder):
// only a regular file is ever renamed over (over a device it once turned /dev/null into a file
// of personal data; over a FIFO it left the reader waiting). A character device or FIFO is
// written through where a stream will do; anything else is refused before anything is sent.
import { closeSync, constants, createWriteStream, fstat as fstatCb, open as openCb, type Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { isatty, WriteStream as TtyWriteStream } from 'node:tty';
import { promisify } from 'node:util';
import { Interrupted } from './errors.js';
import { kindOf } from './file-kind.js';
import { UnsafePathError } from './private-file.js';

const openAsync = promisify(openCb);
const fstatAsync = promisify(fstatCb);

export type WriteTarget = 'none' | 'file' | 'stream';

/** `streams`: whether a device or FIFO may be written through (the journal, read back, may not). */
export async function writeTarget(path: string, options: { streams: boolean }): Promise<WriteTarget> {
  let info: Stats;
  try {
    info = await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw err;
  }
  if (info.isFile()) return 'file';
  if (options.streams && (info.isFIFO() || info.isCharacterDevice())) return 'stream';
  throw new UnsafePathError(path, `is ${kindOf(info)}`);
}

/** Each file in it is created exclusively, never through a link. */
export async function folderTarget(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info && !info.isDirectory()) throw new UnsafePathError(path, `is ${kindOf(info)}, not a folder`);
}

const READER_POLL_MS = 100;

/** A FIFO's reader is awaited by polling: a blocked open() would make a signal wait. */
export async function openWriteThrough(path: string, o: { signal?: AbortSignal; onWait?: () => void } = {}): Promise<Writable> {
  const flags = constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
  let fd: number;
  let waited = false;
  for (;;) {
    try {
      fd = await openAsync(path, flags);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENXIO') throw err;
      if (o.signal?.aborted) throw new Interrupted();
      if (!waited) o.onWait?.();
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, READER_POLL_MS));
    }
  }
  const info = await fstatAsync(fd);
  if (info.isFIFO()) return new Socket({ fd, readable: false, writable: true });
  // A terminal through its own stream (a full one waits in the event loop); any other device takes writes at once.
  if (info.isCharacterDevice()) return isatty(fd) ? new TtyWriteStream(fd) : createWriteStream('', { fd });
  // Swapped between the look and the open: nothing is written.
  closeSync(fd);
  throw new UnsafePathError(path, `is ${kindOf(info)}`);
}
