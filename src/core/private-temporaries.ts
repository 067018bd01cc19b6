// The temporary files of core/private-file.ts, and the sweep of those a
// killed run left behind. A run killed between the write and the rename
// (SIGKILL, a power cut: no exit handler runs) leaves `.<name>.<pid>.<random>.tmp`
// beside the user's file, holding personal data; the next run that writes
// that file removes it, and only what is recognisably ours and abandoned:
// a regular file (never a link) under exactly that name, owned by this user,
// whose process is gone and which was left untouched for STALE_MS (a pid
// seen from another machine or pid namespace sharing the folder may look
// gone). A name without a pid (an earlier version's) must have been
// untouched for a day. The config store's own temporary files beside
// config.json are swept the same way, by age, and so are the files moved
// aside to be removed (a journal lock's takeover), by their pid and age.
// Anything else is left alone.
import { randomBytes } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** How long a temporary file must have been left untouched before it is taken for abandoned. */
export const STALE_MS = 10 * 60 * 1000;
/** The same for a name that carries no pid. */
const STALE_WITHOUT_PID_MS = 24 * 60 * 60 * 1000;

/** `.<name>.<pid>.<16 hex>.tmp`, as core/private-file.ts names them; earlier versions had no pid. */
const WITH_PID = /^\.(.+)\.([1-9][0-9]{0,9})\.[0-9a-f]{16}\.tmp$/;
const WITHOUT_PID = /^\.(.+)\.[0-9a-f]{16}\.tmp$/;

/** The file a temporary name is for and the pid that made it; undefined when it is not such a name. */
function parse(name: string): { target: string; pid?: number } | undefined {
  const withPid = WITH_PID.exec(name);
  if (withPid) return { target: withPid[1]!, pid: Number(withPid[2]) };
  const without = WITHOUT_PID.exec(name);
  return without ? { target: without[1]! } : undefined;
}

/**
 * Removes the abandoned temporary files in `dir` of the files `isTarget`
 * accepts (by name). Never fails: a folder or file that cannot be read is
 * left as it is.
 */
export function sweepTemporaries(dir: string, isTarget: (name: string) => boolean, now = Date.now()): Promise<void> {
  return sweep(dir, now, (name) => {
    const found = parse(name);
    if (!found || !isTarget(found.target)) return undefined;
    if (found.pid !== undefined && !processGone(found.pid)) return undefined;
    return found.pid === undefined ? STALE_WITHOUT_PID_MS : STALE_MS;
  });
}

/**
 * The config store's writer (conf, through atomically) leaves
 * `config.json.tmp-<10 digits><6 hex>` when killed before its rename. The
 * config folder is the user's own (core/config.ts refuses one others can
 * write to) and a write takes milliseconds, so age alone tells one abandoned.
 */
export function sweepConfigTemporaries(dir: string, fileName: string, now = Date.now()): Promise<void> {
  return sweep(dir, now, (name) => (name.startsWith(`${fileName}.tmp-`) && /^\d{10}[0-9a-f]{6}$/.test(name.slice(fileName.length + 5)) ? STALE_MS : undefined));
}

/**
 * Where to move `path` aside before removing it: `<path>.<pid>.<16 hex>.stale`,
 * named after this process so that sweepMovedAside() can tell one a killed
 * run left between the move and the removal.
 */
export function asideName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(8).toString('hex')}.stale`;
}

/**
 * Removes the abandoned files in `dir` that asideName() named for `fileName`,
 * by the rules of sweepTemporaries(); the rename keeps the file's own time, so
 * the pid is what protects a move in progress. Earlier versions named them
 * `<fileName>.<16 hex>.stale`. Never fails.
 */
export function sweepMovedAside(dir: string, fileName: string, now = Date.now()): Promise<void> {
  return sweep(dir, now, (name) => {
    if (!name.startsWith(`${fileName}.`)) return undefined;
    const rest = name.slice(fileName.length + 1);
    if (/^[0-9a-f]{16}\.stale$/.test(rest)) return STALE_WITHOUT_PID_MS;
    const withPid = /^([1-9][0-9]{0,9})\.[0-9a-f]{16}\.stale$/.exec(rest);
    return withPid && processGone(Number(withPid[1])) ? STALE_MS : undefined;
  });
}

/** Removes the regular files of this user in `dir` that `staleAfter` names, untouched for that many ms. */
async function sweep(dir: string, now: number, staleAfter: (name: string) => number | undefined): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const uid = process.getuid?.();
  for (const name of names) {
    const ms = staleAfter(name);
    if (ms === undefined) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isFile() || (uid !== undefined && info.uid !== uid) || now - info.mtimeMs < ms) continue;
    await unlink(path).catch(() => undefined);
  }
}

/**
 * Whether no process has this pid here (EPERM: one exists, another user's):
 * the one test of a pid a file names, for what it may sweep or take over.
 */
export function processGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
