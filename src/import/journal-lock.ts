// One import holds a journal at a time (CLI.md "--journal / --resume"):
// otherwise two imports of one file take each other's journal, and the first
// to end deletes it. `<journal>.lock`, made whole and exclusively, names its
// holder; a stale one (its process gone) is moved aside, checked, taken over.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, unlinkSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { hinted, UsageError } from '../core/errors.js';
import { readRegularFile, UnsafePathError, writePrivateFile } from '../core/private-file.js';
import { asideName, processGone, sweepMovedAside } from '../core/private-temporaries.js';

interface LockOwner {
  pid: number;
  host: string;
  nonce: string;
  createdAt: string;
}

export class JournalLock {
  private readonly onExit = () => this.release();
  private held = true;

  private constructor(
    readonly path: string,
    private readonly owner: LockOwner,
  ) {
    process.once('exit', this.onExit);
  }

  /** Refuses (UsageError, before anything is sent) when another import holds the lock. */
  static async acquire(journalPath: string, onNotice?: (message: string) => void): Promise<JournalLock> {
    const path = `${journalPath}.lock`;
    const owner: LockOwner = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex'), createdAt: new Date().toISOString() };
    const content = `${JSON.stringify(owner)}\n`;
    await sweepMovedAside(dirname(path), basename(path));
    // A few rounds: a lock can vanish, or be taken over, between two looks.
    for (let round = 0; round < 5; round++) {
      try {
        await writePrivateFile(path, content, { existing: 'refuse', durable: false });
        return new JournalLock(path, owner);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotLock(journalPath, path, err);
      }
      const holder = await readOwner(journalPath, path);
      if (holder === undefined) continue; // released meanwhile
      if (holder.host !== owner.host || !processGone(holder.pid)) throw inUse(journalPath, path, holder);
      // Moved aside, then read again: of two imports taking over one stale lock, only one gets it.
      const aside = asideName(path);
      try {
        await rename(path, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // someone else took it over
        throw cannotLock(journalPath, path, err);
      }
      const moved = await readOwner(journalPath, aside).catch(() => undefined);
      if (moved?.nonce === holder.nonce && moved.pid === holder.pid) {
        await rm(aside, { force: true });
        onNotice?.(`took over the lock of the journal ${journalPath} left by pid ${holder.pid}, which is no longer running`);
        continue;
      }
      // Another import took it over in between: its lock goes back, whole and exclusively (unless yet another
      // is there now), the way every lock is made, so a file system without hard links gets it back too.
      const taken = await readRegularFile(aside).catch(() => undefined);
      if (taken !== undefined) await writePrivateFile(path, taken, { existing: 'refuse', durable: false }).catch(() => undefined);
      await rm(aside, { force: true });
      throw inUse(journalPath, path, moved ?? holder);
    }
    throw inUse(journalPath, path, undefined);
  }

  /** If it is still this import's; synchronous, for the exit hook. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    process.removeListener('exit', this.onExit);
    try {
      if (ownerOf(readSyncNoFollow(this.path))?.nonce === this.owner.nonce) unlinkSync(this.path);
    } catch {
      // Gone already, or not ours: nothing to remove.
    }
  }
}

/** The lock's holder; undefined when the lock is gone. A lock that cannot be read or names no holder is refused. */
async function readOwner(journalPath: string, path: string): Promise<LockOwner | undefined> {
  let data: Buffer | undefined;
  try {
    data = await readRegularFile(path);
  } catch (err) {
    throw cannotLock(journalPath, path, err);
  }
  if (data === undefined) return undefined;
  const owner = ownerOf(data.toString('utf8'));
  if (!owner) {
    throw hinted(
      new UsageError(`the journal ${journalPath} is locked by ${path}, which does not name the import holding it`),
      `If no import of this file is running, delete ${path}. Nothing was sent.`,
    );
  }
  return owner;
}

function ownerOf(text: string | undefined): LockOwner | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(value.pid) && (value.pid as number) > 0 && typeof value.host === 'string' && typeof value.nonce === 'string') return value as LockOwner;
  } catch {
    // not a lock of ours
  }
  return undefined;
}

function readSyncNoFollow(path: string): string | undefined {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}

function inUse(journalPath: string, path: string, holder: LockOwner | undefined): UsageError {
  const who = holder ? `pid ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}` : 'its lock keeps changing';
  return hinted(
    new UsageError(`the journal ${journalPath} is in use by another import (${who})`),
    `Wait for it to end, or stop it. If no import of this file is running, delete ${path}. Nothing was sent.`,
  );
}

function cannotLock(journalPath: string, path: string, err: unknown): UsageError {
  if (err instanceof UnsafePathError) {
    return hinted(new UsageError(`the lock of the journal ${journalPath}, ${err.path}, ${err.reason}`), `Delete ${err.path}, or choose another file with --journal. Nothing was sent.`);
  }
  return hinted(
    new UsageError(`cannot create the journal ${journalPath}: its lock ${path} cannot be created (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`),
    'Choose a writable place with --journal <file>. Nothing was sent.',
  );
}

