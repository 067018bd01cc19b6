// What Linux's /proc says of a process the tests started.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Peak resident memory of a process in MiB (VmHWM), or undefined once it is gone. */
export function peakResidentMiB(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return line ? Number(/(\d+)/.exec(line)![1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** What the process's descriptors past stderr are open on (their /proc/<pid>/fd links); none once it is gone. */
export function openFiles(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  return fds.filter((fd) => Number(fd) > 2).flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

/** Resolves once the process has a descriptor open on a file that `matches` (true), or has ended (false). */
export async function whenOpen(pid: number, matches: (target: string) => boolean, what: string, timeoutMs = 20_000): Promise<boolean> {
  const start = Date.now();
  for (;;) {
    if (openFiles(pid).some(matches)) return true;
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
