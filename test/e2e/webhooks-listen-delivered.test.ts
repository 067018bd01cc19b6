// `webhooks listen` answers 200 only for a delivery that is delivered (CLI.md
// `webhooks listen`): saved, written to a sink that took it, or forwarded.
// With stdout its only sink and a FIFO nobody reads, it once answered 200 to
// a hundred deliveries held only in memory and dropped them at SIGTERM ("99
// not printed", exit 0): the service, told 200, never sends them again.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';
import { post, waitUntil, within } from '../helpers/webhooks.js';

const LIST = '11111111-1111-4111-8111-111111111111';
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A delivery of 200 events, about 60 KB: a few fill a pipe's buffer. */
function delivery(seq: number): string {
  const events = Array.from({ length: 200 }, (_, j) => ({ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: `p${seq}-${j}@example.com`, Name: 'x'.repeat(200), CustomFields: [] }));
  return JSON.stringify({ Events: events, ListID: LIST });
}

interface Listener {
  child: ChildProcess;
  url: string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** `email webhooks listen --port 0 -o ndjson [more]`, its stdout a FIFO that `sleep 300` holds open and never reads. */
async function spawnListen(more: string[] = []): Promise<Listener> {
  requireBuild();
  const fifo = join(mkdtempSync(join(tmpdir(), 'email-fifo-')), 'o');
  execFileSync('mkfifo', [fifo]);
  started.push(spawn('sh', ['-c', 'exec sleep 300 <"$0"', fifo], { stdio: 'ignore' }));
  const child = spawn('sh', ['-c', 'exec "$@" >"$0"', fifo, process.execPath, BIN, 'webhooks', 'listen', '--port', '0', '-o', 'ndjson', ...more], {
    env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: tempConfigDir() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitUntil(() => /Listening on (http:\/\/[^\s"]+)/.test(stderr), 'the listener to start', 20_000);
  return { child, url: /Listening on (http:\/\/[^\s"]+)/.exec(stderr)![1]!, stderr: () => stderr, exited };
}

async function postAll(url: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await within(10_000, post(url, delivery(i), 'application/json'), `the answer to delivery ${i + 1}`)).status);
  return statuses;
}

const messages = (stderr: string) => stderr.trim().split('\n').map((l) => (JSON.parse(l) as { message: string }).message);

describe('webhooks listen: 200 means delivered, never held in memory only', () => {
  it('with stdout a FIFO nobody reads, answers 503 to what stdout cannot take, and drops nothing it answered 200 at SIGTERM', async () => {
    const listener = await spawnListen();
    const statuses = await postAll(listener.url, 30);
    const ok = statuses.filter((s) => s === 200).length;
    // A pipe's buffer (64 KiB) and the stream's take the first one or two; the rest were never written.
    expect(ok).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 503).length).toBe(30 - ok);
    listener.child.kill('SIGTERM');
    expect(await within(20_000, listener.exited, 'the end after SIGTERM')).toBe(0);
    const said = messages(listener.stderr());
    expect(said.join('\n')).not.toMatch(/not printed/);
    expect(said.at(-1)).toMatch(new RegExp(`^received ${ok} deliver(y|ies), ${ok * 200} events, ${30 - ok} answered 503 as no sink took them`));
  }, 90_000);

  it('with --save, saves and answers 200 however stuck stdout is, and names at the stop, with their events, those never printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-save-'));
    const listener = await spawnListen(['--save', dir]);
    const statuses = await postAll(listener.url, 8);
    expect(statuses).toEqual(Array(8).fill(200));
    expect(readdirSync(dir)).toHaveLength(8);
    listener.child.kill('SIGTERM');
    expect(await within(20_000, listener.exited, 'the end after SIGTERM')).toBe(0);
    const said = messages(listener.stderr()).join('\n');
    expect(said).toMatch(/^delivery 8 \(list 11111111-1111-4111-8111-111111111111, saved\) not printed: Subscribe p7-0@example\.com, Subscribe p7-1@example\.com, /m);
    expect(said).toMatch(/\d+ not printed \(listed above\)/);
  }, 90_000);
});
