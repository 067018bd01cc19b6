// `email subscribers import` meeting files as spreadsheets and shells write
// them, through the real binary (CLI.md "Import input", "--failures"): the
// failures file comes back exactly as its rows went out whatever the input's
// encoding (UTF-8 with a BOM, and a BOM wins over --encoding), its Line column
// keeps naming the line of the first file through every round trip, gzip input
// (a .csv.gz file, gzip on stdin) is read as its CSV, and Excel's `sep=;` first
// line names the delimiter without being a row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { expectCountsAddUp, tempDir, writeFile } from '../helpers/import-files.js';

const LIST = SEED_LIST_IDS.customers;
/** Holds unsubscribed@example.com as unsubscribed: the service refuses it (206). */
const NEWSLETTER = SEED_LIST_IDS.newsletter;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

let sandbox: RunningSandbox;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
  env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey, EMAIL_CONFIG_DIR: tempConfigDir() };
});
afterEach(async () => {
  await sandbox.stop();
});

const email = (argv: string[], stdin?: string | Buffer) => spawnCli(argv, { cwd: dir, env, stdin });
const importArgs = (file: string, ...more: string[]) => ['subscribers', 'import', file, '--list', LIST, '--json', ...more];
const stored = (address: string, list: string = LIST) => sandbox.state().lists[list.toLowerCase()]!.Subscribers[address];
/** A failures file's rows as text, its BOM off. */
const rowsOf = (name: string) => readFileSync(join(dir, name), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
const summaryOf = (r: { stdout: string }) => {
  const summary = JSON.parse(r.stdout);
  expectCountsAddUp(summary);
  return summary;
};

describe('the failures file comes back as its rows went out, whatever the input\'s encoding', () => {
  it('Windows-1252: import with --failures, fix the row, run the same command on the failures file: the service stores Zoë', async () => {
    writeFile(dir, 'people.csv', Buffer.from('email,name,Consent\r\nole@example.com,Olé,yes\r\nzoe@,Zoë,yes\r\n', 'latin1'));
    const command = (file: string, failures: string) => importArgs(file, '--encoding', 'windows-1252', '--failures', failures);
    const first = await email(command('people.csv', 'failed.csv'));
    expect(first.code, first.stderr).toBe(3);
    expect(stored('ole@example.com')?.Name).toBe('Olé');
    // The user fixes the address in the file and saves it as it is.
    const failed = readFileSync(join(dir, 'failed.csv'), 'utf8');
    writeFile(dir, 'failed.csv', Buffer.from(failed.replace('zoe@,', 'zoe@example.com,'), 'utf8'));
    const again = await email(command('failed.csv', 'failed-2.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again)).toMatchObject({ rows: 1, new: 1 });
    expect(stored('zoe@example.com')?.Name).toBe('Zoë');
    // UTF-8 with a byte-order mark: what spreadsheets read right, and what the import follows over --encoding.
    expect(readFileSync(join(dir, 'failed.csv')).subarray(0, 3)).toEqual(BOM);
  });

  it('UTF-16 without a BOM (--encoding utf16le): the same command on the fixed failures file stores the names as they were', async () => {
    writeFile(dir, 'people.txt', Buffer.from('email\tname\tConsent\r\nzoe@\tZoë Ωmega\tyes\r\nli@\t李雷\tyes\r\n', 'utf16le'));
    const command = (file: string, failures: string) => importArgs(file, '--encoding', 'utf16le', '--failures', failures);
    const first = await email(command('people.txt', 'failed.csv'));
    expect(first.code, first.stderr).toBe(2);
    expect(summaryOf(first)).toMatchObject({ rows: 2, rejected: 2 });
    const failed = readFileSync(join(dir, 'failed.csv'));
    expect(failed.subarray(0, 3)).toEqual(BOM);
    writeFile(dir, 'failed.csv', Buffer.from(failed.toString('utf8').replace('zoe@\t', 'zoe@example.com\t').replace('li@\t', 'li@example.com\t'), 'utf8'));
    const again = await email(command('failed.csv', 'failed-2.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again)).toMatchObject({ rows: 2, new: 2, encoding: 'utf8' });
    expect(stored('zoe@example.com')?.Name).toBe('Zoë Ωmega');
    expect(stored('li@example.com')?.Name).toBe('李雷');
  });

  it('a file that starts with a BOM is read by its BOM whatever --encoding says (UTF-8, UTF-16LE, UTF-16BE)', async () => {
    const text = 'email,name,Consent\r\nzoe@example.com,Zoë,yes\r\n';
    const utf16be = Buffer.from(text, 'utf16le').swap16();
    writeFile(dir, 'utf8.csv', Buffer.concat([BOM, Buffer.from(text, 'utf8')]));
    writeFile(dir, 'utf16le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    writeFile(dir, 'utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]));
    for (const [file, encoding] of [['utf8.csv', 'utf8'], ['utf16le.csv', 'utf16le'], ['utf16be.csv', 'utf16be']] as const) {
      const r = await email(importArgs(file, '--encoding', 'windows-1252'));
      expect(r.code, `${file}: ${r.stderr}`).toBe(0);
      expect(summaryOf(r)).toMatchObject({ rows: 1, encoding });
      expect(stored('zoe@example.com')?.Name, file).toBe('Zoë');
    }
  });
});

describe('the Line column names the line of the first file, through every round trip', () => {
  it('a failures file imported again writes each row\'s original line, for rows rejected before sending and rows the service refused', async () => {
    writeFile(
      dir,
      'people.csv',
      'email,name,Consent\nok@example.com,OK,yes\nbad@,Bad,yes\nok2@example.com,OK2,yes\nunsubscribed@example.com,U,yes\nworse@,Worse,yes\n',
    );
    const command = (file: string, failures: string) => ['subscribers', 'import', file, '--list', NEWSLETTER, '--failures', failures];
    const first = await email(command('people.csv', 'failed.csv'));
    expect(first.code, first.stderr).toBe(3);
    const lineAndOutcome = (name: string) => rowsOf(name).slice(1).map((row) => row.split(',').slice(0, 5).join(','));
    expect(lineAndOutcome('failed.csv')).toEqual(['bad@,Bad,yes,3,rejected', 'worse@,Worse,yes,6,rejected', 'unsubscribed@example.com,U,yes,5,failed']);
    // Fix one row; the others stay as they were.
    writeFile(dir, 'failed.csv', readFileSync(join(dir, 'failed.csv'), 'utf8').replace('bad@,', 'bad@example.com,'));
    const second = await email(command('failed.csv', 'failed-2.csv'));
    expect(second.code, second.stderr).toBe(3);
    expect(rowsOf('failed-2.csv')[0]).toBe('email,name,Consent,Line,Outcome,Code,Message');
    expect(lineAndOutcome('failed-2.csv')).toEqual(['worse@,Worse,yes,6,rejected', 'unsubscribed@example.com,U,yes,5,failed']);
    // Messages on stderr name the line of the file being read, where it is fixed.
    expect(second.stderr).toMatch(/^ {2}line 3: rejected \(1\): invalid email address "worse@"/m);
    const third = await email(command('failed-2.csv', 'failed-3.csv'));
    expect(third.code, third.stderr).toBe(1);
    expect(lineAndOutcome('failed-3.csv')).toEqual(['worse@,Worse,yes,6,rejected', 'unsubscribed@example.com,U,yes,5,failed']);
  });
});
