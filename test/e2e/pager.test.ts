// The pager (CLI.md "pager") on a real terminal: bin/email runs on a pty made
// by `script -qec`, with a recording EMAIL_PAGER (a shell command that writes
// what it reads to a file), against the sandbox.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, tempConfigDir } from '../helpers/cli.js';
import { onTerminal, recorder, shellQuote as quote } from '../helpers/terminal.js';
import { post, waitUntil } from '../helpers/webhooks.js';
import { peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';

const CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());


const TALL = ['campaigns', 'unsubscribes', CAMPAIGN, '--page-size', '50'];

describe('pager', () => {
  it('output taller than the terminal goes through EMAIL_PAGER', async () => {
    const rec = recorder();
    const r = await onTerminal(sandbox, TALL, { EMAIL_PAGER: rec.command });
    expect(r.code, r.screen).toBe(0);
    const paged = readFileSync(rec.file, 'utf8');
    // The whole table: 50 records (a value wider than its column wraps onto a second line), a header and three rules.
    expect(paged.match(/^│ \S+@\S+ /gm)).toHaveLength(50);
    expect(paged.match(/^[┌├└]/gm)).toHaveLength(3);
    expect(r.screen).not.toContain('@example');
  });

  it('PAGER is used when EMAIL_PAGER is not set', async () => {
    const rec = recorder();
    const r = await onTerminal(sandbox, TALL, { PAGER: rec.command });
    expect(r.code).toBe(0);
    expect(existsSync(rec.file)).toBe(true);
  });

  it('is not used with --no-pager, with EMAIL_PAGER=cat, in a pipe, or for output that fits', async () => {
    for (const [argv, env, tail] of [
      [[...TALL, '--no-pager'], {}, ''],
      [TALL, { EMAIL_PAGER: 'cat' }, ''],
      [TALL, {}, '| cat'],
      [['campaigns', 'sent'], {}, ''],
    ] as [string[], Record<string, string>, string][]) {
      const rec = recorder();
      const r = await onTerminal(sandbox, argv, { PAGER: rec.command, ...env }, tail);
      expect(r.code, `${argv.join(' ')} ${tail}`).toBe(0);
      expect(existsSync(rec.file), `${argv.join(' ')} ${JSON.stringify(env)} ${tail}`).toBe(false);
      expect(r.screen).toMatch(/@example|Welcome/);
    }
  });

  it('a pager that quits early ends the command like a closed pipe: exit 0, no stack trace, no further pages asked for', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'email-pager-')), 'first-lines.txt');
    const before = sandbox.requestCount();
    // 250 pages of 10; the pager reads five lines and quits, as q in less.
    const r = await onTerminal(sandbox, ['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '10'], { EMAIL_PAGER: `head -n 5 > ${quote(file)}` });
    expect(r.code, r.screen).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(6);
    expect(r.screen).not.toMatch(/error|Error|at .*\.js/);
    expect(sandbox.requestCount() - before).toBeLessThan(250);
  });

  // What the pager never showed reaches the terminal directly, after one warning naming it.
  const rows = (screen: string) => screen.match(/^│ \S+@\S+ /gm)?.length ?? 0;

  it('a pager that cannot start (not found: exit 127): the output on the terminal, a warning naming it, exit 0', async () => {
    const r = await onTerminal(sandbox, TALL, { EMAIL_PAGER: 'nosuchpager-i19' });
    expect(r.code, r.screen).toBe(0);
    expect(rows(r.screen), r.screen).toBe(50);
    expect(r.screen).toMatch(/^warning: the pager "nosuchpager-i19" could not start \(exit 127\)/m);
  });

  it('a pager that exits non-zero without reading (EMAIL_PAGER=false): the output on the terminal, a warning naming it', async () => {
    const r = await onTerminal(sandbox, TALL, { EMAIL_PAGER: 'false' });
    expect(r.code, r.screen).toBe(0);
    expect(rows(r.screen), r.screen).toBe(50);
    expect(r.screen).toMatch(/^warning: the pager "false" exited with 1 before reading the output/m);
  });

  it('a streamed listing (--all) whose pager cannot start is shown whole, once', async () => {
    const whole = await onTerminal(sandbox, ['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '100', '--no-pager'], {});
    const r = await onTerminal(sandbox, ['campaigns', 'unsubscribes', CAMPAIGN, '--all', '--page-size', '100'], { EMAIL_PAGER: 'nosuchpager-i19' });
    expect(r.code, r.screen.slice(-500)).toBe(0);
    expect(rows(whole.screen)).toBeGreaterThan(1000);
    expect(rows(r.screen)).toBe(rows(whole.screen));
    expect(r.screen.match(/^warning: the pager/gm)).toHaveLength(1);
  });

  // CLI.md `webhooks listen`: "At a terminal, events are printed as they arrive (no pager for output without end)."
  it("the sandbox's banner, taller than the terminal, is never paged: it serves until Ctrl-C", async () => {
    const rec = recorder();
    const r = await onTerminal(sandbox, ['sandbox', '--port', '0'], { EMAIL_PAGER: rec.command }, '', { rows: 20, before: 'timeout --preserve-status -s INT 4' });
    expect(r.code, r.screen).toBe(0);
    expect(existsSync(rec.file), r.screen).toBe(false);
    expect(r.screen).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
    expect(r.screen.split('\n').length, r.screen).toBeGreaterThan(20);
  }, 30_000);

  it("a dry run's titles stay with their tables: on stdout, through the pager with them", async () => {
    const dir = tempDir();
    writeFile(dir, 'people.csv', `${peopleCsv(3)}not-an-address,Broken,Co,yes\n`);
    const rec = recorder();
    const r = await onTerminal(sandbox, ['subscribers', 'import', join(dir, 'people.csv'), '--list', SEED_LIST_IDS.customers, '--dry-run'], { EMAIL_PAGER: rec.command }, '', { rows: 10 });
    expect(r.code, r.screen).toBe(3);
    const paged = readFileSync(rec.file, 'utf8');
    expect(paged).toMatch(/people\.csv: delimiter .*columns:\n┌/);
    expect(paged).toMatch(/Rows that would not be imported:\n┌/);
    expect(r.screen).not.toContain('Rows that would not be imported');
  }, 30_000);

  it('webhooks listen at a terminal prints each event as it arrives, never through the pager, before any signal', async () => {
    const rec = recorder();
    const listen = startOnTerminal(['webhooks', 'listen', '--port', '0'], { EMAIL_PAGER: rec.command });
    try {
      await waitUntil(() => /Listening on http:\/\/\S+/.test(listen.screen()), 'the listener to start', 20_000);
      const url = /Listening on (http:\/\/[^\s\r]+)/.exec(listen.screen())![1]!;
      const event = (i: number) => ({ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: `arrived${i}@example.com`, Name: `P ${i}`, CustomFields: [] });
      // One event (shorter than the terminal), then 30 (taller): each is on the screen while listen runs.
      expect((await post(url, JSON.stringify({ Events: [event(0)], ListID: LIST }), 'application/json')).status).toBe(200);
      await waitUntil(() => listen.screen().includes('arrived0@example.com'), 'the first event on the screen', 10_000);
      const many = Array.from({ length: 30 }, (_, i) => event(i + 1));
      expect((await post(url, JSON.stringify({ Events: many, ListID: LIST }), 'application/json')).status).toBe(200);
      await waitUntil(() => listen.screen().includes('arrived30@example.com'), 'the 30 events on the screen', 10_000);
    } finally {
      process.kill(await listen.pid, 'SIGINT');
    }
    const r = await listen.closed;
    expect(r.code, r.screen).toBe(0);
    expect(existsSync(rec.file)).toBe(false);
  });
});

const LIST = '44444444-4444-4444-8444-444444444444';

/** `email <argv>` started on a 20-row pty and left running: what the terminal shows so far, its pid (to signal it), and its end. */
function startOnTerminal(argv: string[], env: Record<string, string>) {
  // `exec`: the shell's pid, printed first, becomes the program's.
  const command = `stty rows 20 cols 100; echo "pid=$$"; exec ${quote(process.execPath)} ${quote(BIN)} ${argv.map(quote).join(' ')}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_') && k !== 'PAGER' && k !== 'NO_COLOR' && k !== 'FORCE_COLOR'));
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...inherited, EMAIL_CONFIG_DIR: tempConfigDir(), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d) => (screen += d));
  child.stderr.on('data', (d) => (screen += d));
  // Left open: `script` ends its session when its input ends.
  const pid = waitUntil(() => /pid=\d+/.test(screen), 'the pid', 20_000).then(() => Number(/pid=(\d+)/.exec(screen)![1]));
  const closed = new Promise<{ code: number | null; screen: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.end();
      resolve({ code, screen });
    });
  });
  return { screen: () => screen, pid, closed };
}
