// Files written beside the user's data (journal, lock, failures, saved deliveries) may sit in
// folders others can write to and hold personal data: so no symlink is followed, a temporary
// under a random name is created with O_EXCL|O_NOFOLLOW, mode 0600, fsync, then renamed (or
// hard-linked, or copied where links are refused) into place, so it exists whole or not at all.
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
  /** 'refuse' makes commit() fail with EEXIST (a lock, a saved delivery). Default 'replace'. */
  existing?: 'replace' | 'refuse';
  /** 'replace' a link at the target without following it (CLI.md lets --failures do so). */
  symlink?: 'refuse' | 'replace';
  /** A lock skips fsync: a sync can wait behind other files' writeback before anything is sent. */
  durable?: boolean;
  /** Sweep killed runs' temporaries first; a caller writing many files of one folder sweeps once itself. */
  sweep?: boolean;
}

const swept = new Set<string>();

export class PrivateFile {
  private fd: FileHandle | undefined;
  private placed = false;

  private constructor(
    readonly path: string,
    private readonly temporary: string,
    handle: FileHandle,
    private readonly existing: 'replace' | 'refuse',
    private readonly durable: boolean,
  ) {
    this.fd = handle;
  }

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

  /** The temporary file, then (after commit()) the file in place: appends never reopen the path. */
  get handle(): FileHandle {
    if (!this.fd) throw new Error(`${this.path} is closed`);
    return this.fd;
  }

  get committed(): boolean {
    return this.placed;
  }

  async write(data: string | Uint8Array): Promise<void> {
    await this.handle.writeFile(data);
  }

  /** The descriptor stays open for appends; close() it when done. */
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
 * Without modes (FAT, some FUSE) the file is private all the same when its folder is the
 * user's, nobody else may write to it, and nobody else can read the file or enter the folder.
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
const RENAME_OVER_REFUSED = new Set(['EEXIST', 'EPERM', 'EACCES', 'EBUSY', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

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

/** Never follows a link and refuses a FIFO (it would hang the open); undefined when absent. */
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
