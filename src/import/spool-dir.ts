// The private directory a pipe's copy is made in (input.ts), and the sweep of
// those a killed run left behind: a copy can be gigabytes of a tmpfs (RAM).
// Only what is recognisably ours, of a process gone and untouched for a while, is removed.
import { lstat, mkdtemp, readdir, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processGone } from '../core/private-temporaries.js';

const PREFIX = 'email-import-';
const NAME = /^email-import-([1-9][0-9]{0,9})-[A-Za-z0-9]{6}$/;
/** The only files a copy's directory holds. */
const COPY_NAMES = new Set(['stdin.csv', 'input.csv']);
/** How long a directory must have been left untouched: a pid in another pid namespace sharing TMPDIR looks gone from here. */
export const STALE_MS = 10 * 60 * 1000;

/** Named after this process, so a later run can tell whether it is still alive. */
export function makeSpoolDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
}

/** Never fails: a sweep that cannot read is skipped. */
export async function sweepStaleSpools(now = Date.now()): Promise<void> {
  const dir = tmpdir();
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match || !processGone(Number(match[1]))) continue;
    await removeIfStale(join(dir, name), now).catch(() => undefined);
  }
}

async function removeIfStale(path: string, now: number): Promise<void> {
  const info = await lstat(path);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o777) !== 0o700) return;
  if (now - info.mtimeMs < STALE_MS) return;
  const entries = await readdir(path);
  if (entries.some((entry) => !COPY_NAMES.has(entry))) return;
  for (const entry of entries) {
    const file = await lstat(join(path, entry));
    if (!file.isFile() || (uid !== undefined && file.uid !== uid) || now - file.mtimeMs < STALE_MS) return;
  }
  for (const entry of entries) await rm(join(path, entry), { force: true });
  await rmdir(path);
}
