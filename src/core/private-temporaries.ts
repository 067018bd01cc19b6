// Sweeps what killed runs left beside the user's files (temporaries of private-file.ts, the
// config store's, files moved aside), which may hold personal data. Only what is recognisably
// ours and abandoned goes: a regular file under exactly that name, owned by this user, whose
// process is gone and that was untouched for a while (a pid seen from another host may look gone).
import { randomBytes } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const STALE_MS = 10 * 60 * 1000;
/** A name without a pid (an earlier version's). */
const STALE_WITHOUT_PID_MS = 24 * 60 * 60 * 1000;

/** Earlier versions had no pid. */
const WITH_PID = /^\.(.+)\.([1-9][0-9]{0,9})\.[0-9a-f]{16}\.tmp$/;
const WITHOUT_PID = /^\.(.+)\.[0-9a-f]{16}\.tmp$/;

function parse(name: string): { target: string; pid?: number } | undefined {
  const withPid = WITH_PID.exec(name);
  if (withPid) return { target: withPid[1]!, pid: Number(withPid[2]) };
  const without = WITHOUT_PID.exec(name);
  return without ? { target: without[1]! } : undefined;
}

/** Never fails: what cannot be read is left as it is. */
export function sweepTemporaries(dir: string, isTarget: (name: string) => boolean, now = Date.now()): Promise<void> {
  return sweep(dir, now, (name) => {
    const found = parse(name);
    if (!found || !isTarget(found.target)) return undefined;
    if (found.pid !== undefined && !processGone(found.pid)) return undefined;
    return found.pid === undefined ? STALE_WITHOUT_PID_MS : STALE_MS;
  });
}

/** conf's temporaries: the folder is the user's own and a write is quick, so age alone tells one abandoned. */
export function sweepConfigTemporaries(dir: string, fileName: string, now = Date.now()): Promise<void> {
  return sweep(dir, now, (name) => (name.startsWith(`${fileName}.tmp-`) && /^\d{10}[0-9a-f]{6}$/.test(name.slice(fileName.length + 5)) ? STALE_MS : undefined));
}

/** Named after this process, so sweepMovedAside() can tell one a killed run left. */
export function asideName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(8).toString('hex')}.stale`;
}

/** The rename keeps the file's own time, so the pid is what protects a move in progress. Never fails. */
export function sweepMovedAside(dir: string, fileName: string, now = Date.now()): Promise<void> {
  return sweep(dir, now, (name) => {
    if (!name.startsWith(`${fileName}.`)) return undefined;
    const rest = name.slice(fileName.length + 1);
    if (/^[0-9a-f]{16}\.stale$/.test(rest)) return STALE_WITHOUT_PID_MS;
    const withPid = /^([1-9][0-9]{0,9})\.[0-9a-f]{16}\.stale$/.exec(rest);
    return withPid && processGone(Number(withPid[1])) ? STALE_MS : undefined;
  });
}

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

/** EPERM means one exists, another user's. */
export function processGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
