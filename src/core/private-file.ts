// Files the tool writes beside the user's data: the import journal and its
// lock, the failures file, saved webhook deliveries (ENGINEERING.md habit 16,
// CLI.md "--journal", "--failures", "webhooks listen"). They sit in folders
// other people may write to (a shared export folder), and hold personal data,
// so every one is created the same way:
//
// - a symbolic link at the target is refused (or, where asked, replaced by the
//   rename without being followed); nothing is ever opened through one;
// - the data goes to a temporary file beside the target, under a name nobody
//   can guess (random bytes), created exclusively with O_NOFOLLOW: a file or
//   link planted there in advance makes the creation fail, never a write
//   through it; those a killed run left are swept (core/private-temporaries.ts);
// - mode 0600, set on the descriptor (a umask cannot loosen it);
// - fsync, then a rename into place (or a hard link, where an existing file
//   must not be replaced), then a sync of the directory, so the file exists
//   whole or not at all after a crash.
//
// File systems that refuse a hard link (FAT, exFAT, many SMB and FUSE mounts)
// get the file copied, exclusively and without following a link, to its path;
// those that refuse a rename over an existing file get that file removed
// first (a crash in between leaves the data in the temporary file). Nothing
// here relies on O_TMPFILE.
//
// A file that is appended to after it is in place (the journal) goes on
// through the descriptor created here, which is the file renamed into place:
// its path is never opened again, so a link planted there later is not
// followed either. readRegularFile() is the matching read: it does not follow
// a link and refuses anything but a regular file (a FIFO planted there would
// otherwise hang the open).
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, open, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { kindOf } from './file-kind.js';
import { sweepTemporaries } from './private-temporaries.js';

/** 0 where the platform has no such flag (Windows, where O_EXCL alone refuses an existing link). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** A path that is not a regular file of ours: `reason` completes "<path> …" (e.g. "is a symbolic link"). */
export class UnsafePathError extends Error {
  readonly code = 'EUNSAFE';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} ${reason}`);
    this.name = 'UnsafePathError';
  }
}

export interface PrivateFileOptions {
  /**
   * What becomes of a file already at the target: 'replace' (the rename
   * replaces it) or 'refuse' (the commit fails with EEXIST: a lock, a saved
   * delivery). Default 'replace'.
   */
  existing?: 'replace' | 'refuse';
  /**
   * A symbolic link at the target: 'refuse' (default), or 'replace' it with
   * the file, without following it (--failures: CLI.md lets the file named
   * replace a link there).
   */
  symlink?: 'refuse' | 'replace';
  /**
   * fsync the file and its directory on commit (default true). A lock, which
   * only matters while its process runs, skips them: a sync can wait behind
   * the writeback of other files' data, before anything is sent.
   */
  durable?: boolean;
  /**
   * Remove the temporary files killed runs left for this path first (default
   * true; once a path per process). A caller writing many files of one
   * folder (saved deliveries) sweeps the folder once instead.
   */
  sweep?: boolean;
}

/** Paths whose leftovers this process has swept already. */
const swept = new Set<string>();

export class PrivateFile {
  private fd: FileHandle | undefined;
  private placed = false;

  private constructor(
    /** Where the file ends up. */
    readonly path: string,
    /** The temporary file until commit(). */
    private readonly temporary: string,
    handle: FileHandle,
    private readonly existing: 'replace' | 'refuse',
    private readonly durable: boolean,
  ) {
    this.fd = handle;
  }

  /** Creates the temporary file (0600, exclusively, under an unpredictable name) beside `path`. */
  static async create(path: string, options: PrivateFileOptions = {}): Promise<PrivateFile> {
    if (options.symlink !== 'replace') await refuseLink(path);
    if (options.sweep !== false && !swept.has(path)) {
      swept.add(path);
      const name = basename(path);
      await sweepTemporaries(dirname(path), (target) => target === name);
    }
    // Named after this process, so a later run can tell one a killed run left (private-temporaries.ts).
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
    // Read and write: where hard links are refused, commit() copies the file from this descriptor.
    const handle = await open(temporary, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    try {
      // The mode given to open() is narrowed by the umask, never widened; chmod makes it exactly 0600.
      await handle.chmod(0o600).catch((err: NodeJS.ErrnoException) => privateWithoutModes(err, handle, dirname(path)));
    } catch (err) {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw err;
    }
    return new PrivateFile(path, temporary, handle, options.existing ?? 'replace', options.durable ?? true);
  }

  /** The open descriptor: the temporary file, then (after commit()) the file in place. */
  get handle(): FileHandle {
    if (!this.fd) throw new Error(`${this.path} is closed`);
    return this.fd;
  }

  /** Whether commit() has put the file in place. */
  get committed(): boolean {
    return this.placed;
  }

  /** Writes all of `data` at the current position. */
  async write(data: string | Uint8Array): Promise<void> {
    await this.handle.writeFile(data);
  }

  /**
   * Makes the file durable and puts it at its path: fsync, rename (or a hard
   * link where existing files are refused), sync of the directory. The
   * descriptor stays open for appends; close() it when done.
   */
  async commit(): Promise<void> {
    if (this.durable) await this.handle.sync();
    if (this.existing === 'replace') {
      await this.renameIntoPlace();
    } else {
      await this.linkIntoPlace();
    }
    this.placed = true;
    if (this.durable) await syncDirectory(dirname(this.path));
  }

  async close(): Promise<void> {
    const handle = this.fd;
    this.fd = undefined;
    await handle?.close();
  }

  /** Closes the file and removes the temporary one when it was not put in place (an error on the way). */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    if (!this.placed) await rm(this.temporary, { force: true }).catch(() => undefined);
  }

  /** A rename replaces a link at the path rather than following it. */
  private async renameIntoPlace(): Promise<void> {
    try {
      await rename(this.temporary, this.path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      // Some SMB and FUSE mounts refuse a rename over an existing file: the old one goes first (unlink follows no link).
      const there = RENAME_OVER_REFUSED.has(code) ? await lstat(this.path).catch(() => undefined) : undefined;
      if (!there || there.isDirectory()) throw err;
      await unlink(this.path);
      await rename(this.temporary, this.path);
    }
  }

  /** link() fails with EEXIST whatever is at the path, a dangling link included, and never follows it. */
  private async linkIntoPlace(): Promise<void> {
    try {
      await link(this.temporary, this.path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || !LINK_UNSUPPORTED.has(code ?? '')) throw err;
      // A file system without hard links (FAT, some network shares): the file is written
      // again, exclusively at its path, and the descriptor follows it there.
      await this.copyExclusively();
      return;
    }
    await unlink(this.temporary);
  }

  /** Copies the temporary file to its path, created exclusively (a file or link there: EEXIST); the descriptor moves there. */
  private async copyExclusively(): Promise<void> {
    // Read back through a descriptor of its own, opened once the writing one is closed: fusefat reads
    // zeros through the descriptor that wrote them. The same file, checked by device and inode.
    const written = await this.handle.stat();
    await this.handle.close();
    this.fd = undefined;
    const from = await open(this.temporary, constants.O_RDONLY | NOFOLLOW);
    const reopened = await from.stat();
    if (reopened.dev !== written.dev || reopened.ino !== written.ino) {
      await from.close();
      throw new UnsafePathError(this.temporary, 'was replaced while it was written');
    }
    const target = await open(this.path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    try {
      await target.chmod(0o600).catch(() => undefined);
      // In pieces, so a large file (a saved delivery) costs a small buffer, not its size.
      const chunk = Buffer.allocUnsafe(COPY_CHUNK);
      for (let at = 0; ; ) {
        const { bytesRead } = await from.read(chunk, 0, COPY_CHUNK, at);
        if (bytesRead === 0) break;
        await target.write(chunk, 0, bytesRead);
        at += bytesRead;
      }
      if (this.durable) await target.sync();
    } catch (err) {
      await target.close().catch(() => undefined);
      await from.close().catch(() => undefined);
      await rm(this.path, { force: true });
      throw err;
    }
    await from.close().catch(() => undefined);
    this.fd = target;
    await unlink(this.temporary);
  }
}

/** What chmod fails with on a file system that keeps no modes (FAT: fusefat says ENOSYS, vfat EPERM). */
const MODES_UNSUPPORTED = new Set(['EPERM', 'ENOSYS', 'ENOTSUP', 'EOPNOTSUPP']);

/**
 * A file system that sets no modes (FAT, some FUSE mounts) gives each file
 * the mode of its mount: the file stays there, with `err` put aside, when it
 * is private all the same: its folder is the user's own and no one else may
 * write to it (nobody can swap the file), and either no one else can read the
 * file or no one else can enter the folder. Otherwise the refusal says why.
 */
async function privateWithoutModes(err: NodeJS.ErrnoException, handle: FileHandle, dir: string): Promise<void> {
  const uid = process.getuid?.();
  if (!MODES_UNSUPPORTED.has(err.code ?? '') || uid === undefined) throw err;
  const [file, folder] = await Promise.all([handle.stat(), stat(dir)]);
  const why =
    folder.uid !== uid
      ? 'that folder is not yours'
      : folder.mode & 0o022
        ? 'others can write to that folder'
        : file.mode & 0o077 && folder.mode & 0o077
          ? 'others can read its files'
          : undefined;
  // No code: callers that name an error by its code show this message instead.
  if (why) throw new Error(`the file system of ${dir} sets no file modes (chmod: ${err.code}), and ${why}`);
}

const COPY_CHUNK = 64 * 1024;
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
/** What a rename over an existing file fails with where the file system refuses that (SMB, FUSE). */
const RENAME_OVER_REFUSED = new Set(['EEXIST', 'EPERM', 'EACCES', 'EBUSY', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Writes a whole file at `path` the private way (PrivateFile): it exists whole, or not at all. */
export async function writePrivateFile(path: string, data: string | Uint8Array, options: PrivateFileOptions = {}): Promise<void> {
  const file = await PrivateFile.create(path, options);
  try {
    await file.write(data);
    await file.commit();
  } catch (err) {
    await file.discard();
    throw err;
  }
  await file.close();
}

/**
 * Reads a file without following a link at its path; undefined when there is
 * none. Throws UnsafePathError for a link or anything but a regular file.
 * With `maxBytes`, a file larger than that throws before a byte is read (its
 * size is asked of the open descriptor), and a file growing past it meanwhile
 * is read no further.
 */
export async function readRegularFile(path: string, maxBytes?: number): Promise<Buffer | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // Linux and macOS say ELOOP for a link under O_NOFOLLOW, FreeBSD EMLINK.
    if (code === 'ELOOP' || code === 'EMLINK') throw new UnsafePathError(path, 'is a symbolic link');
    throw err;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UnsafePathError(path, `is ${kindOf(info)}`);
    if (maxBytes === undefined) return await handle.readFile();
    if (info.size > maxBytes) throw new Error(`${path} is larger than ${maxBytes} bytes: not read`);
    // One byte past the size asked tells a file that grew since: read no further.
    const buffer = Buffer.alloc(info.size + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) return buffer.subarray(0, size);
      size += bytesRead;
      if (size > info.size) throw new Error(`${path} grew while it was read: not read`);
    }
  } finally {
    await handle.close();
  }
}

async function refuseLink(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) throw new UnsafePathError(path, 'is a symbolic link');
}

/** Makes a rename durable: the directory entry itself is synced (Linux and macOS; ignored where unsupported). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a directory; its rename is already durable enough.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
