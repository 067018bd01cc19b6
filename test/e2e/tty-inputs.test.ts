// A terminal named as a file (CLI.md "signals": reading stdin, a FIFO or a
// terminal never makes a signal wait): `subscribers import /dev/tty`,
// `webhooks replay /dev/tty`, `api -d @/dev/tty`, each run in a terminal of
// its own (script(1) gives it one) and sent SIGTERM while it waits for a
// line. The import once printed "interrupted" and went on waiting: its read
// of the terminal held a thread of the pool, which the exit waits for.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';
import { whenOpen } from '../helpers/proc.js';

const hasScript = process.platform === 'linux' && spawnSync('sh', ['-c', 'command -v script'], { stdio: 'ignore' }).status === 0;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const LIST = '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41';
const NOWHERE = 'http://127.0.0.1:9';

/** Runs bin/email in a terminal of its own; resolves its pid once it has started, and its exit code. */
function inTerminal(args: string[]): { pid: Promise<number>; exited: Promise<number | null>; output: () => string } {
  requireBuild();
  const dir = tempConfigDir();
  const pidFile = join(dir, 'pid');
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const env = { ...process.env, EMAIL_CONFIG_DIR: dir, EMAIL_API_KEY: 'k', EMAIL_BASE_URL: NOWHERE };
  // stdin stays open: script(1) ends the terminal when its own input ends.
  const child = spawn('script', ['-qec', `sh -c 'echo $$ > ${pidFile}; exec ${quoted.replace(/'/g, `'\\''`)}'`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const pid = (async () => {
    for (let i = 0; i < 100 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
    return Number(readFileSync(pidFile, 'utf8'));
  })();
  return { pid, exited, output: () => output };
}

describe.runIf(hasScript)('a terminal named as the input is read so that a signal ends it', () => {
  const commands: [string, string[]][] = [
    ['subscribers import /dev/tty', ['subscribers', 'import', '/dev/tty', '--list', LIST]],
    ['webhooks replay /dev/tty', ['webhooks', 'replay', '/dev/tty', '--to', `${NOWHERE}/hooks`]],
    ['api -d @/dev/tty', ['api', '/email/x', '-d', '@/dev/tty']],
  ];
  for (const [name, args] of commands) {
    it(`${name}: SIGTERM while it waits for a line exits 130 at once`, async () => {
      const run = inTerminal(args);
      const pid = await run.pid;
      // Loaded and waiting on the terminal: the command has opened /dev/tty (its link names /dev/tty, not the pts).
      await whenOpen(pid, (target) => target === '/dev/tty', 'email to open /dev/tty');
      const sentAt = Date.now();
      process.kill(pid, 'SIGTERM');
      const killer = setTimeout(() => children.forEach((c) => c.kill('SIGKILL')), 4_000);
      const code = await run.exited;
      clearTimeout(killer);
      expect(code, run.output()).toBe(130);
      expect(Date.now() - sentAt).toBeLessThan(4_000);
      try {
        process.kill(pid, 0);
        process.kill(pid, 'SIGKILL');
        expect.fail(`email ${args.join(' ')} still runs after SIGTERM`);
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ESRCH');
      }
    });
  }
});
