// `bin/email webhooks listen` as a real process whose outputs nobody reads
// (CLI.md "signals": nothing makes a signal wait, an output nobody reads
// included; `webhooks listen` "Memory stays bounded … a notice quotes at most
// a short, escaped part of what a sender wrote"). Its stdout is a FIFO whose
// reader never reads (`sleep 300 <o`), or its stderr a pipe left unread.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';
import { peakResidentMiB } from '../helpers/proc.js';
import { post, waitUntil, within } from '../helpers/webhooks.js';

const LIST = '11111111-1111-4111-8111-111111111111';
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

const linux = existsSync('/proc/self/status');

function delivery(seq: number, listId = LIST): string {
  const events = Array.from({ length: 50 }, (_, j) => ({ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: `p${seq}-${j}@example.com`, Name: 'x'.repeat(200), CustomFields: [] }));
  return JSON.stringify({ Events: events, ListID: listId });
}

interface Listener {
  child: ChildProcess;
  url: string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** `email webhooks listen --port 0 -o ndjson`, its stdout a FIFO that `sleep 300` holds open and never reads. */
async function listenIntoUnreadFifo(): Promise<Listener> {
  requireBuild();
  const fifo = join(mkdtempSync(join(tmpdir(), 'email-fifo-')), 'o');
  execFileSync('mkfifo', [fifo]);
  started.push(spawn('sh', ['-c', 'exec sleep 300 <"$0"', fifo], { stdio: 'ignore' }));
  const child = spawn('sh', ['-c', 'exec "$@" >"$0"', fifo, process.execPath, BIN, 'webhooks', 'listen', '--port', '0', '-o', 'ndjson'], {
    env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: tempConfigDir() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  return listenerOf(child);
}

async function listenerOf(child: ChildProcess): Promise<Listener> {
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitUntil(() => /Listening on (http:\/\/[^\s"]+)/.test(stderr), 'the listener to start', 20_000);
  return { child, url: /Listening on (http:\/\/[^\s"]+)/.exec(stderr)![1]!, stderr: () => stderr, exited };
}

/** Posts deliveries one after another; returns the statuses. */
async function postAll(url: string, count: number, body: (i: number) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await within(10_000, post(url, body(i), 'application/json'), `the answer to delivery ${i + 1}`)).status);
  return statuses;
}

describe('webhooks listen ends on a signal whatever its outputs do (CLI.md "signals")', () => {
  it('with stdout a FIFO nobody reads, the first SIGINT ends it with its summary and exit 0', async () => {
    const listener = await listenIntoUnreadFifo();
    const statuses = await postAll(listener.url, 200, (i) => delivery(i));
    // What the pipe's buffer took is answered 200; the rest 503, since nothing holds it but memory (CLI.md `webhooks listen`).
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(150);
    listener.child.kill('SIGINT');
    // The contract's bound is a couple of seconds for what is held to drain; the wait here only catches "never".
    const code = await within(20_000, listener.exited, 'the end after SIGINT');
    expect(code).toBe(0);
    const lines = listener.stderr().trim().split('\n').map((l) => JSON.parse(l) as { type: string; message: string });
    expect(lines.at(-1)!.message).toMatch(/^received \d+ deliver(y|ies), \d+ events, \d+ answered 503 as no sink took them \(to be sent again\)$/);
  }, 90_000);

  it('SIGINT ×3 then SIGTERM (issue 27.5): the second signal ends it at once, exit 130', async () => {
    const listener = await listenIntoUnreadFifo();
    await postAll(listener.url, 200, (i) => delivery(i));
    listener.child.kill('SIGINT');
    await waitUntil(() => /stopping/.test(listener.stderr()), 'the first signal to be taken');
    for (const signal of ['SIGINT', 'SIGINT', 'SIGTERM'] as const) {
      // Signals less than 100 ms apart are one interruption (CLI.md "signals"): these are three more.
      await new Promise((resolve) => setTimeout(resolve, 300));
      listener.child.kill(signal);
    }
    // 130, not the first signal's normal end (0): it was ended before what it held was printed.
    expect(await within(20_000, listener.exited, 'the end after the signals')).toBe(130);
  }, 90_000);
});

describe('webhooks listen with stderr nobody reads (issue 27.8)', () => {
  it.skipIf(!linux)('quotes a few dozen characters of a 9.9 MiB ListID, and its memory stays bounded with stderr unread', async () => {
    requireBuild();
    const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', '-o', 'ndjson'], {
      env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: tempConfigDir() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.push(child);
    const listener = await listenerOf(child);
    child.stderr!.pause(); // nobody reads it from now on
    const huge = 'L'.repeat(9.9 * 1024 * 1024);
    const body = JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: 'p@example.com', Name: 'n', CustomFields: [] }], ListID: `\u001b[2J${huge}` });
    const statuses = await postAll(listener.url, 24, () => body);
    expect(statuses).toEqual(Array(24).fill(200));
    // Notices quoting the whole ListID held 10 MiB each (427 MiB after 16 deliveries, 804 MiB after 60);
    // quoting 40 characters, the peak is what reading and printing 10 MiB deliveries costs (about 260 MiB).
    expect(peakResidentMiB(child.pid!)!).toBeLessThan(380);
    child.stderr!.resume();
    child.kill('SIGINT');
    expect(await within(20_000, listener.exited, 'the end after SIGINT')).toBe(0);
    const notices = listener
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { message: string })
      .filter((l) => /^delivery \d+/.test(l.message));
    expect(notices.length).toBeGreaterThan(0);
    for (const { message } of notices) {
      expect(message).toMatch(/^delivery \d+: 1 event \(json, \d+ bytes\) for list \\x1b\[2JL{20,60}… \(\d+ characters\)$/);
    }
  }, 180_000);
});
