// Counts and tables as each destination needs them, through bin/email (CLI.md
// "numbers", "-o table"): digits are grouped only for a terminal, decided per
// stream (stderr to a pipe gets plain digits whatever stdout is), and a table
// on an 80-column terminal keeps every id and every header word whole,
// shortening free text with … instead. The terminal is a pty made by `script`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { useCleanups } from '../helpers/cleanups.js';
import { peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const cleanups = useCleanups();
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `email <argv>` on a pty `cols` wide; returns what the terminal showed (stdout and stderr) and the exit code. */
function onTerminal(argv: string[], env: Record<string, string>, cols = 80, tail = '', cwd?: string): Promise<{ screen: string; code: number }> {
  const command = `stty rows 50 cols ${cols}; ${quote(process.execPath)} ${quote(BIN)} ${argv.map(quote).join(' ')} ${tail}; echo "rc=$?"`;
  return new Promise((resolve, reject) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && k !== 'COLUMNS'));
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd,
      env: { ...inherited, EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5', NO_COLOR: '1', COLUMNS: String(cols), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (screen += d));
    child.on('error', reject);
    child.on('close', () => {
      const m = /rc=(\d+)/.exec(screen);
      resolve({ screen: screen.replace(/\r/g, ''), code: m ? Number(m[1]) : -1 });
    });
    child.stdin.end();
  });
}

const UUID = 'c0ffee00-1234-4abc-8def-0123456789ab';
const HEX = '0123456789abcdef0123456789abcdef';
const sent = (id: string, name: string, subject: string, recipients: number) => ({
  CampaignID: id,
  Name: name,
  Subject: subject,
  SentDate: '2026-11-20 10:00',
  TotalRecipients: recipients,
  WebVersionURL: 'https://example.com/w',
  WebVersionTextURL: 'https://example.com/t',
  FromName: 'Ada',
  FromEmail: 'ada@example.com',
  ReplyTo: 'ada@example.com',
});

describe('digit grouping, per destination (CLI.md "numbers")', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.stop());

  it('stderr written to a pipe says "1 of 1501 rows", plain digits', async () => {
    const dir = tempDir();
    writeFile(dir, 'people.csv', `${peopleCsv(1500)}not-an-address,Broken,Co,yes\n`);
    const r = await spawnCli(['subscribers', 'import', 'people.csv', '--list', SEED_LIST_IDS.customers], {
      cwd: dir,
      env: { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey },
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^error: 1 of 1501 rows not imported/m);
    expect(r.stderr).not.toMatch(/\d,\d{3}/);
    // The summary in the pipe: plain digits too.
    expect(r.stdout).toMatch(/^Rows\t1501$/m);
  }, 60_000);

  it('stderr at a terminal groups, whatever stdout is (here a file)', async () => {
    const dir = tempDir();
    writeFile(dir, 'people.csv', `${peopleCsv(1500)}not-an-address,Broken,Co,yes\n`);
    const r = await onTerminal(['subscribers', 'import', 'people.csv', '--list', SEED_LIST_IDS.customers], { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey }, 120, '> summary.txt', dir);
    expect(r.code, r.screen).toBe(3);
    expect(r.screen).toMatch(/^error: 1 of 1,501 rows not imported/m);
    expect(readFileSync(join(dir, 'summary.txt'), 'utf8')).toMatch(/^Rows\t1501$/m);
  }, 60_000);

  it('a terminal table groups the counts of campaigns sent', async () => {
    const server = await startScriptedServer();
    cleanups.push(() => server.close());
    server.reply({ status: 200, body: [sent(UUID, 'June', 'News', 61005)] });
    const r = await onTerminal(['campaigns', 'sent', '--no-pager'], { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k-12345678' }, 120);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain('61,005');
  });
});

describe('tables at 80 columns (CLI.md "-o table")', () => {
  it('keep ids and header words whole, shorten free text with …, and fit the terminal', async () => {
    const server = await startScriptedServer();
    cleanups.push(() => server.close());
    const longSubject = 'Our autumn newsletter: everything that happened in the garden this season, and what comes next';
    const other = 'fedcba9876543210fedcba9876543210';
    server.reply({
      status: 200,
      body: [sent(HEX, 'Autumn newsletter for every subscriber of the garden club', longSubject, 1234), sent(other, 'June', 'News', 61005)],
    });
    const r = await onTerminal(['campaigns', 'sent', '--no-pager'], { EMAIL_BASE_URL: server.url, EMAIL_API_KEY: 'k-12345678' });
    expect(r.code, r.screen).toBe(0);
    const lines = r.screen.split('\n').filter((l) => /^[┌│├└]/.test(l));
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    // Each id on one line, whole.
    expect(lines.filter((l) => l.includes(HEX))).toHaveLength(1);
    expect(lines.filter((l) => l.includes(other))).toHaveLength(1);
    // Each header word whole, on the header line.
    const header = lines[1]!;
    for (const word of ['ID', 'Name', 'Subject', 'Sent', 'Recipients']) expect(header).toMatch(new RegExp(`│ ${word}\\s`));
    // Free text shortened with …, never wrapped onto a second line.
    expect(r.screen).toContain('…');
    expect(r.screen).not.toMatch(/│ (garden|season|club)/);
  });
});
