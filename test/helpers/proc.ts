// What Linux's /proc says of a process the tests started.
import { readFileSync } from 'node:fs';

/** Peak resident memory of a process in MiB (VmHWM), or undefined once it is gone. */
export function peakResidentMiB(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return line ? Number(/(\d+)/.exec(line)![1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
