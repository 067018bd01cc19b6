// CLI.md "broken pipe", through the real binary: when the reader of stdout
// goes away (`email … | head -1`), the command stops its work (no further
// requests beyond those already in flight), prints nothing more and exits 0.
// Each test reads the first line of stdout, then closes its end of the pipe,
// as `head -1` does.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WALK_CONCURRENCY } from '../../src/core/pool.js';
import { BIN, tempConfigDir } from '../helpers/cli.js';
import { record, startPagedServer } from '../helpers/commands-paged-server.js';
import { post, startScriptedReceiver, waitUntil } from '../helpers/webhooks.js';
import { useCleanups } from '../helpers/cleanups.js';

const CAMPAIGN = '33333333-3333-4333-8333-333333333333';
const LIST = '22222222-2222-4222-8222-222222222222';
/** A delivery body of two Subscribe events, the n-th of a run. */
function deliveryBody(n: number): string {
  const event = (i: number) => ({ Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: `person${n}-${i}@example.com`, Name: `Person ${n}`, CustomFields: [] });
  return JSON.stringify({ Events: [event(1), event(2)], ListID: LIST });
}

const cleanups = useCleanups();

interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  firstLine: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnEmail(argv: string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { PATH: process.env.PATH ?? '', EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  void exit.then(() => clearTimeout(timer));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exit;
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d;
      const end = text.indexOf('\n');
      if (end >= 0) {
        child.stdout.off('data', onData);
        resolve(text.slice(0, end));
      }
    };
    child.stdout.on('data', onData);
    void exit.then(() => reject(new Error(`exited before a line was printed: ${stderr}`)));
  });
  return { child, stderr: () => stderr, firstLine, exit };
}

/** `| head -1`: reads one line, then closes the reading end of stdout. */
async function headOne(s: Spawned): Promise<string> {
  const line = await s.firstLine;
  s.child.stdout.destroy();
  return line;
}

describe('a walk whose reader goes away', () => {
  it.each([['-o ndjson'], ['-o csv'], ['-o table'], ['--json']])('campaigns unsubscribes --all %s | head -1: exit 0, nothing on stderr, no request past the window', async (flags) => {
    const format = flags.split(' ');
    const all = Array.from({ length: 3000 }, (_, i) => record(i));
    const server = await startPagedServer({ records: () => all, delayMs: () => 2 });
    cleanups.push(() => server.close());
    const s = spawnEmail(['campaigns', 'unsubscribes', '--campaign', CAMPAIGN, '--all', '--page-size', '10', ...format], {
      EMAIL_BASE_URL: server.url,
      EMAIL_API_KEY: 'k-12345678',
    });
    await headOne(s);
    const requestsAtClose = server.requests.length;
    const { code } = await s.exit;
    expect(s.stderr()).toBe('');
    expect(code).toBe(0);
    expect(requestsAtClose).toBeLessThan(300); // the walk was still going when the reader left
    expect(server.requests.length - requestsAtClose).toBeLessThanOrEqual(WALK_CONCURRENCY);
  });
});

describe('other commands whose reader goes away', () => {
  it('webhooks replay … | head -1: no further delivery is sent, exit 0', async () => {
    const receiver = await startScriptedReceiver(cleanups);
    const dir = mkdtempSync(join(tmpdir(), 'email-pipe-replay-'));
    const files: string[] = [];
    for (let i = 0; i < 40; i++) {
      const path = join(dir, `${String(i).padStart(3, '0')}.json`);
      writeFileSync(path, deliveryBody(i));
      files.push(path);
    }
    const s = spawnEmail(['webhooks', 'replay', ...files, '--to', receiver.url, '-o', 'ndjson']);
    await headOne(s);
    const sentAtClose = receiver.requests.length;
    const { code } = await s.exit;
    expect(s.stderr()).toBe('');
    expect(code).toBe(0);
    expect(receiver.requests.length - sentAtClose).toBeLessThanOrEqual(1);
    expect(receiver.requests.length).toBeLessThan(40);
  });

  it('subscribers import --dry-run --json | a reader that quits: exit 0, nothing on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-pipe-import-'));
    // Every row has its name, so no notice about empty names is owed on stderr.
    const rows = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? `person${i}@example.com,P ${i},yes` : `not-an-address-${i},P ${i},yes`));
    const file = join(dir, 'people.csv');
    writeFileSync(file, `email,name,consent\n${rows.join('\n')}\n`);
    const s = spawnEmail(['subscribers', 'import', file, '--list', LIST, '--dry-run', '--json']);
    await headOne(s);
    const { code } = await s.exit;
    expect(s.stderr()).toBe('');
    expect(code).toBe(0);
  });

  it('a closed stderr does not crash a command that succeeds', async () => {
    const all = Array.from({ length: 30 }, (_, i) => record(i));
    const server = await startPagedServer({ records: () => all });
    cleanups.push(() => server.close());
    const s = spawnEmail(['campaigns', 'unsubscribes', '--campaign', CAMPAIGN, '--page-size', '10', '-o', 'ndjson'], { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k-12345678' });
    s.child.stderr.destroy(); // the "Page 1 of 3" line has nowhere to go
    let stdout = '';
    s.child.stdout.on('data', (d) => (stdout += d));
    const { code } = await s.exit;
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(10);
  });
});

describe('webhooks listen whose reader goes away', () => {
  async function startListening(args: string[]) {
    const s = spawnEmail(['webhooks', 'listen', '--port', '0', '-o', 'ndjson', ...args]);
    await waitUntil(() => /Listening on [^\s"]+["\s]/.test(s.stderr()), 'the listener to start');
    const url = /Listening on ([^\s"]+)["\s]/.exec(s.stderr())![1]!;
    const deliver = (n: number) => post(url, deliveryBody(n), 'application/json');
    return { s, url, deliver };
  }

  it('with nowhere else to put events it stops accepting deliveries and exits 0', async () => {
    const { s, deliver } = await startListening([]);
    expect((await deliver(1)).status).toBe(200);
    await headOne(s);
    // The next delivery is printed to nobody: the listener stops.
    const next = await deliver(2).catch((error: Error) => error);
    const { code } = await s.exit;
    expect(code).toBe(0);
    expect(s.stderr()).not.toMatch(/EPIPE|Error|    at /);
    expect(next instanceof Error || next.status === 200).toBe(true);
    // Refused from now on, so the service keeps them for a retry.
    await expect(deliver(3)).rejects.toThrow();
  });

  it('with --save it keeps serving and saving, and prints nothing more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-pipe-listen-'));
    const { s, deliver } = await startListening(['--save', dir]);
    expect((await deliver(1)).status).toBe(200);
    await headOne(s);
    expect((await deliver(2)).status).toBe(200);
    expect((await deliver(3)).status).toBe(200);
    await waitUntil(() => readdirSync(dir).length === 3, 'three saved deliveries');
    expect(s.child.exitCode).toBe(null);
    s.child.kill('SIGINT');
    const { code } = await s.exit;
    expect(code).toBe(0);
    expect(s.stderr()).not.toMatch(/EPIPE|broken pipe|Error|    at /);
    expect(s.stderr()).toMatch(/received 3 deliveries, 6 events/);
  });
});
