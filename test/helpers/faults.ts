// Runs bin/email with some system calls made to fail, as a file system that
// refuses them would (FAT and exFAT have no hard links; many SMB and FUSE
// mounts refuse links, or a rename over an existing file). The failures are
// injected by strace, so the binary runs unchanged; where strace is missing
// the tests that need it are skipped with a message.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN, requireBuild, tempConfigDir } from './cli.js';

/** Whether strace is installed and allowed to trace here (a container may forbid ptrace). */
export const straceWorks: boolean = (() => {
  const probe = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', '-e', 'inject=link,linkat:error=EPERM', process.execPath, '-e', '0'], { timeout: 10_000 });
  return probe.status === 0;
})();

/** One `-e inject=` expression, e.g. `link,linkat:error=EPERM` or `rename,renameat,renameat2:error=EEXIST:when=1`. */
export type Fault = string;

/** No hard links: link() refused as FAT, exFAT and many network shares refuse it. */
export const NO_HARD_LINKS: Fault = 'link,linkat:error=EPERM';

export interface FaultyCli {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  /** The pid of bin/email itself (strace's child), to signal it. */
  emailPid(): number | undefined;
}

/** Starts `bin/email <argv>` under strace with `faults` injected, in the environment the other e2e tests give it. */
export function startFaulty(faults: Fault[], argv: string[], options: { env?: Record<string, string>; cwd?: string } = {}): FaultyCli {
  requireBuild();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('EMAIL_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  Object.assign(env, { EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5' }, options.env);
  const injections = faults.flatMap((f) => ['-e', `inject=${f}`]);
  const child = spawn('strace', ['-f', '-qq', '-o', '/dev/null', ...injections, process.execPath, BIN, ...argv], { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin!.end();
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const emailPid = () => {
    try {
      const first = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0];
      return first ? Number(first) : undefined;
    } catch {
      return undefined;
    }
  };
  return { child, exited, output: () => ({ stdout, stderr }), emailPid };
}

/** Runs `bin/email <argv>` under `faults` to its end; killed after `timeoutMs`. */
export async function runFaulty(faults: Fault[], argv: string[], options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}) {
  const run = startFaulty(faults, argv, options);
  const timer = setTimeout(() => {
    const pid = run.emailPid();
    if (pid) process.kill(pid, 'SIGKILL');
    run.child.kill('SIGKILL');
  }, options.timeoutMs ?? 30_000);
  try {
    const code = await run.exited;
    return { code: code ?? -1, ...run.output() };
  } finally {
    clearTimeout(timer);
  }
}
