// The temporary files of core/private-file.ts, and the sweep of those a
// killed run left behind. A run killed between the write and the rename
// (SIGKILL, a power cut: no exit handler runs) leaves `.<name>.<pid>.<random>.tmp`
// beside the user's file, holding personal data; the next run that writes
// that file removes it, and only what is recognisably ours and abandoned:
// a regular file (never a link) under exactly that name, owned by this user,
// whose process is gone and which was left untouched for STALE_MS (a pid
// seen from another machine or pid namespace sharing the folder may look
// gone). A name without a pid (an earlier version's) must have been
// untouched for a day. Anything else is left alone.
import { randomBytes } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** How long a temporary file must have been left untouched before it is taken for abandoned. */
export const STALE_MS = 10 * 60 * 1000;
/** The same for a name that carries no pid. */
const STALE_WITHOUT_PID_MS = 24 * 60 * 60 * 1000;

const WITH_PID = /^\.(.+)\.([1-9][0-9]{0,9})\.[0-9a-f]{16}\.tmp$/;
const WITHOUT_PID = /^\.(.+)\.[0-9a-f]{16}\.tmp$/;

/** The temporary file beside `path`: hidden, named after its process and random bytes nobody can guess. */
export function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
}

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
export async function sweepTemporaries(dir: string, isTarget: (name: string) => boolean, now = Date.now()): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const uid = process.getuid?.();
  for (const name of names) {
    const found = parse(name);
    if (!found || !isTarget(found.target)) continue;
    if (found.pid !== undefined && !processGone(found.pid)) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isFile() || (uid !== undefined && info.uid !== uid)) continue;
    if (now - info.mtimeMs < (found.pid === undefined ? STALE_WITHOUT_PID_MS : STALE_MS)) continue;
    await unlink(path).catch(() => undefined);
  }
}

/** Whether no process has this pid here (EPERM: one exists, another user's). */
function processGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
