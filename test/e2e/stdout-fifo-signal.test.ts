// CLI.md "signals": nothing makes a signal wait, an output nobody reads
// included. Here `bin/email` prints into a FIFO whose reader (`sleep 300 <o`)
// never reads: once the pipe is full, the command must still end on SIGTERM
// or Ctrl-C, within the grace its output gets (src/core/interrupts.ts).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTPUT_GRACE_MS } from '../../src/core/interrupts.js';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';
import { record, startPagedServer } from '../helpers/commands-paged-server.js';
import { waitUntil, within } from '../helpers/webhooks.js';

const CAMPAIGN = '33333333-3333-4333-8333-333333333333';
const started: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const close of closers.splice(0)) await close();
});

/** `email <argv> >fifo`, the FIFO held open by a reader that never reads. */
function intoUnreadFifo(argv: string[], env: Record<string, string>): { child: ChildProcess; exited: Promise<number | null>; stderr(): string } {
  requireBuild();
  const fifo = join(mkdtempSync(join(tmpdir(), 'email-fifo-')), 'o');
  execFileSync('mkfifo', [fifo]);
  started.push(spawn('sh', ['-c', 'exec sleep 300 <"$0"', fifo], { stdio: 'ignore' }));
  const child = spawn('sh', ['-c', 'exec "$@" >"$0"', fifo, process.execPath, BIN, ...argv], {
    env: { PATH: process.env.PATH ?? '', EMAIL_CONFIG_DIR: tempConfigDir(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

describe('a command whose stdout is a FIFO nobody reads ends on a signal (CLI.md "signals")', () => {
  it.each([
    ['SIGTERM', '-o ndjson'],
    ['SIGINT', '-o ndjson'],
    ['SIGTERM', '--json'],
  ] as const)('campaigns unsubscribes --all %s, %s >fifo: exit 130 within the output grace', async (signal, flags) => {
    // About 450 KB of output: far more than a pipe holds (64 KiB on Linux).
    const all = Array.from({ length: 3000 }, (_, i) => record(i));
    const server = await startPagedServer({ records: () => all });
    closers.push(() => server.close());
    const run = intoUnreadFifo(['campaigns', 'unsubscribes', '--campaign', CAMPAIGN, '--all', '--page-size', '100', ...flags.split(' ')], {
      EMAIL_BASE_URL: server.url,
      EMAIL_API_KEY: 'k-12345678',
    });
    // The pipe is full well before the walk's end: stdout pushes back from then on.
    await waitUntil(() => server.requests.length >= 3, 'the walk to be under way', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(run.child.exitCode).toBeNull();
    run.child.kill(signal);
    const code = await within(OUTPUT_GRACE_MS + 6_000, run.exited, `the end after ${signal}`);
    expect(code, run.stderr()).toBe(130);
  }, 60_000);
});
