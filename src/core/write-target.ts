// The one rule for a path the user gives the tool to write (--failures,
// --journal, --save's folder): what is there decides how it is written, and
// nothing but a regular file is ever renamed over. Renaming over a device
// once turned /dev/null, for root, into a file of personal data; over a FIFO
// it left the reader waiting for ever. A character device or a FIFO is
// written through where the caller can write a stream (a file written once,
// front to back); a symbolic link, a socket, a directory, a block device are
// refused, naming what they are, before anything is sent.
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

/** Nothing at the path, a regular file (written aside and renamed over), or a stream written through. */
export type WriteTarget = 'none' | 'file' | 'stream';

/**
 * What `path` holds, by the rule above; throws UnsafePathError ("<path> is a
 * FIFO") for anything the caller cannot write. `streams`: a character device
 * or a FIFO may be written through (the journal, read back and appended to,
 * may not).
 */
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

/**
 * A folder to write files in (--save): nothing yet, a folder, or a link to
 * one (each file in it is created exclusively, never through a link);
 * anything else is refused, naming what it is.
 */
export async function folderTarget(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info && !info.isDirectory()) throw new UnsafePathError(path, `is ${kindOf(info)}, not a folder`);
}

/** How long to wait between two looks for a FIFO's reader. */
const READER_POLL_MS = 100;

/**
 * Opens a character device or a FIFO for writing, never creating anything,
 * never through a link; a FIFO waits for its reader without holding a thread
 * (a blocked open() would make a signal wait), calling `onWait` once, until
 * `signal` aborts (Interrupted). A FIFO or a terminal is written through the
 * event loop, as Node writes a pipe.
 */
export async function openWriteThrough(path: string, o: { signal?: AbortSignal; onWait?: () => void } = {}): Promise<Writable> {
  const flags = constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
  let fd: number;
  let waited = false;
  for (;;) {
    try {
      fd = await openAsync(path, flags);
      break;
    } catch (err) {
      // ENXIO: a FIFO nobody reads yet.
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
