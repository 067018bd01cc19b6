// Files a user names, read through the real binary (issue 19 point 6; CLI.md
// "answer size" and "signals"): `webhooks replay <file>` and `api -d @file`
// given a FIFO or /dev/zero. A FIFO whose writer never comes, or never
// closes, once ignored SIGTERM and two Ctrl-Cs (its read held a thread that
// not even the exit could free); /dev/zero was read until the machine gave
// out (24 GB). Each is now read as a stream, capped and stopped by a signal.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, requireBuild, startCli, tempConfigDir, type RunningCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/import-files.js';
import { peakResidentMiB, whenOpen } from '../helpers/proc.js';

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function mkfifo(name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** A shell script run beside the files, kept until the test ends. */
function sh(script: string): ChildProcess {
  const child = spawn('sh', ['-c', script], { cwd: dir, stdio: 'ignore' });
  children.push(child);
  return child;
}

// Nothing listens there: none of these runs gets as far as sending.
const NOWHERE = 'http://127.0.0.1:9/hooks';
const apiEnv = () => ({ EMAIL_BASE_URL: 'http://127.0.0.1:9', EMAIL_API_KEY: 'k' });

function start(argv: string[], env: Record<string, string> = {}): RunningCli {
  const run = startCli(argv, { cwd: dir, env });
  children.push(run.child);
  return run;
}


/**
 * The exit code, waiting at most `ms` (the point of these tests is that the
 * wait is bounded); the process is killed past 1 GiB, which only an
 * unbounded read reaches. Returns the highest peak memory seen too.
 */
async function exitWithin(run: RunningCli, ms: number): Promise<{ code: number | null | 'timeout' | 'too big'; peakMiB: number }> {
  let peakMiB = 0;
  let verdict: 'timeout' | 'too big' | undefined;
  const watch = setInterval(() => {
    const now = peakResidentMiB(run.child.pid!);
    if (now !== undefined) peakMiB = Math.max(peakMiB, now);
    if (peakMiB > 1024) {
      verdict = 'too big';
      run.child.kill('SIGKILL');
    }
  }, 20);
  const timer = setTimeout(() => {
    verdict ??= 'timeout';
    run.child.kill('SIGKILL');
  }, ms);
  try {
    const code = await run.exited;
    return { code: verdict ?? code, peakMiB };
  } finally {
    clearInterval(watch);
    clearTimeout(timer);
  }
}

/** Waits until the command has started: its process has the file open (an action's work, so its signals are armed). */
async function settled(run: RunningCli, file: string): Promise<void> {
  await whenOpen(run.child.pid!, (target) => target === join(dir, file), `email to open ${file}`);
}

const commands: [string, (file: string) => string[], () => Record<string, string>][] = [
  ['webhooks replay <fifo>', (file) => ['webhooks', 'replay', file, '--to', NOWHERE], () => ({})],
  ['api -d @fifo', (file) => ['api', '/email/x', '-d', `@${file}`], apiEnv],
];

describe.skipIf(!existsSync('/proc/self/status'))('a FIFO named as a file is read so that a signal ends it', () => {
  for (const [name, argv, env] of commands) {
    it(`${name} with no writer yet: Ctrl-C once exits 130 at once`, async () => {
      mkfifo('in.fifo');
      const run = start(argv('in.fifo'), env());
      await settled(run, 'in.fifo');
      run.child.kill('SIGINT');
      const { code } = await exitWithin(run, 10_000);
      expect(code, run.output().stderr).toBe(130);
      expect(run.output().stderr).toMatch(/interrupted/);
    });

    it(`${name} whose writer never closes it: SIGTERM exits 130 at once`, async () => {
      mkfifo('in.fifo');
      sh('exec 3>in.fifo; printf "{" >&3; exec sleep 60');
      const run = start(argv('in.fifo'), env());
      await settled(run, 'in.fifo');
      run.child.kill('SIGTERM');
      const { code } = await exitWithin(run, 10_000);
      expect(code, run.output().stderr).toBe(130);
    });
  }

  it('webhooks replay <fifo> sends the delivery a writer puts in it', async () => {
    const { startScriptedReceiver } = await import('../helpers/webhooks.js');
    const receiver = await startScriptedReceiver();
    try {
      mkfifo('in.fifo');
      sh(`printf '%s' '{"Events":[{"Type":"Subscribe"}],"ListID":"x"}' > in.fifo`);
      const run = start(['webhooks', 'replay', 'in.fifo', '--to', receiver.url]);
      const { code } = await exitWithin(run, 20_000);
      expect(code, run.output().stderr).toBe(0);
      expect(receiver.requests.map((r) => r.json)).toEqual([{ Events: [{ Type: 'Subscribe' }], ListID: 'x' }]);
    } finally {
      await receiver.close();
    }
  });
});

describe.skipIf(!existsSync('/proc/self/status'))('an endless file is refused at its cap, naming the file and the cap', () => {
  it('webhooks replay /dev/zero: exit 2 past 10 MiB (the largest delivery), memory bounded', async () => {
    const run = start(['webhooks', 'replay', '/dev/zero', '--to', NOWHERE]);
    const { code, peakMiB } = await exitWithin(run, 20_000);
    expect(code, run.output().stderr).toBe(2);
    expect(run.output().stderr).toMatch(/^error: \/dev\/zero is larger than 10 MiB, the largest delivery/m);
    // Node itself and 10 MiB; the whole-file read took 3 GB in 8 s and 24 GB before it was killed.
    expect(peakMiB).toBeLessThan(200);
  });

  it('api -d @/dev/zero: exit 2 past 8 MiB', async () => {
    const run = start(['api', '/email/x', '-d', '@/dev/zero'], apiEnv());
    const { code, peakMiB } = await exitWithin(run, 20_000);
    expect(code, run.output().stderr).toBe(2);
    expect(run.output().stderr).toMatch(/^error: -d\/--data: \/dev\/zero is larger than 8 MiB/m);
    expect(peakMiB).toBeLessThan(200);
  });

  it('api -d @- with /dev/zero on stdin: exit 2 past 8 MiB', async () => {
    requireBuild();
    const child = spawn('sh', ['-c', 'exec "$0" "$1" api /email/x -d @- < /dev/zero', process.execPath, BIN], {
      env: { PATH: process.env.PATH, ...apiEnv(), EMAIL_CONFIG_DIR: tempConfigDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const wrapped: RunningCli = { child, exited: new Promise((resolve) => child.on('close', resolve)), output: () => ({ stdout: '', stderr }) };
    const { code, peakMiB } = await exitWithin(wrapped, 20_000);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/^error: -d\/--data: stdin is larger than 8 MiB/m);
    expect(peakMiB).toBeLessThan(200);
  });
});

describe('email sandbox --state names a file the sandbox reads and writes', () => {
  it('a FIFO or a device is refused with exit 2, without waiting for a writer', async () => {
    mkfifo('state.fifo');
    for (const state of ['state.fifo', '/dev/zero']) {
      const run = start(['sandbox', '--port', '0', '--state', state]);
      const { code } = await exitWithin(run, 10_000);
      expect(code, run.output().stderr).toBe(2);
      expect(run.output().stderr).toMatch(new RegExp(`^error: state file \\S*${state.replace(/[./]/g, '\\$&')} is not a regular file`, 'm'));
    }
  });
});
