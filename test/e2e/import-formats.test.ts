// `email subscribers import` meeting files as spreadsheets and shells write
// them, through the real binary (CLI.md "Import input", "--failures"): the
// failures file comes back exactly as its rows went out whatever the input's
// encoding (UTF-8 with a BOM, and a BOM wins over --encoding), its Line column
// keeps naming the line of the first file through every round trip, gzip input
// (a .csv.gz file, gzip on stdin) is read as its CSV, and Excel's `sep=;` first
// line names the delimiter without being a row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { runCli, spawnCli, startCli } from '../helpers/cli.js';
import { expectCountsAddUp, listAddresses, peopleCsv, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.customers;
/** Holds unsubscribed@example.com as unsubscribed: the service refuses it (206). */
const NEWSLETTER = SEED_LIST_IDS.newsletter;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const t = sandboxPerTest();

const email = (argv: string[], stdin?: string | Buffer) => spawnCli(argv, { cwd: t.dir, env: t.env, stdin });
const importArgs = (file: string, ...more: string[]) => ['subscribers', 'import', file, '--list', LIST, '--json', ...more];
const stored = (address: string, list: string = LIST) => t.sandbox.state().lists[list.toLowerCase()]!.Subscribers[address];
/** A failures file's rows as text, its BOM off. */
const rowsOf = (name: string) => readFileSync(join(t.dir, name), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
const summaryOf = (r: { stdout: string }) => {
  const summary = JSON.parse(r.stdout);
  expectCountsAddUp(summary);
  return summary;
};

describe('the failures file comes back as its rows went out, whatever the input\'s encoding', () => {
  it('Windows-1252: import with --failures, fix the row, run the same command on the failures file: the service stores Zoë', async () => {
    writeFile(t.dir, 'people.csv', Buffer.from('email,name,Consent\r\nole@example.com,Olé,yes\r\nzoe@,Zoë,yes\r\n', 'latin1'));
    const command = (file: string, failures: string) => importArgs(file, '--encoding', 'windows-1252', '--failures', failures);
    const first = await email(command('people.csv', 'failed.csv'));
    expect(first.code, first.stderr).toBe(3);
    expect(stored('ole@example.com')?.Name).toBe('Olé');
    // The user fixes the address in the file and saves it as it is.
    const failed = readFileSync(join(t.dir, 'failed.csv'), 'utf8');
    writeFile(t.dir, 'failed.csv', Buffer.from(failed.replace('zoe@,', 'zoe@example.com,'), 'utf8'));
    const again = await email(command('failed.csv', 'failed-2.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again)).toMatchObject({ rows: 1, new: 1 });
    expect(stored('zoe@example.com')?.Name).toBe('Zoë');
    // UTF-8 with a byte-order mark: what spreadsheets read right, and what the import follows over --encoding.
    expect(readFileSync(join(t.dir, 'failed.csv')).subarray(0, 3)).toEqual(BOM);
  });

  it('UTF-16 without a BOM (--encoding utf16le): the same command on the fixed failures file stores the names as they were', async () => {
    writeFile(t.dir, 'people.txt', Buffer.from('email\tname\tConsent\r\nzoe@\tZoë Ωmega\tyes\r\nli@\t李雷\tyes\r\n', 'utf16le'));
    const command = (file: string, failures: string) => importArgs(file, '--encoding', 'utf16le', '--failures', failures);
    const first = await email(command('people.txt', 'failed.csv'));
    expect(first.code, first.stderr).toBe(2);
    expect(summaryOf(first)).toMatchObject({ rows: 2, rejected: 2 });
    const failed = readFileSync(join(t.dir, 'failed.csv'));
    expect(failed.subarray(0, 3)).toEqual(BOM);
    writeFile(t.dir, 'failed.csv', Buffer.from(failed.toString('utf8').replace('zoe@\t', 'zoe@example.com\t').replace('li@\t', 'li@example.com\t'), 'utf8'));
    const again = await email(command('failed.csv', 'failed-2.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again)).toMatchObject({ rows: 2, new: 2, encoding: 'utf8' });
    expect(stored('zoe@example.com')?.Name).toBe('Zoë Ωmega');
    expect(stored('li@example.com')?.Name).toBe('李雷');
  });

  it('a file that starts with a BOM is read by its BOM whatever --encoding says (UTF-8, UTF-16LE, UTF-16BE)', async () => {
    const text = 'email,name,Consent\r\nzoe@example.com,Zoë,yes\r\n';
    const utf16be = Buffer.from(text, 'utf16le').swap16();
    writeFile(t.dir, 'utf8.csv', Buffer.concat([BOM, Buffer.from(text, 'utf8')]));
    writeFile(t.dir, 'utf16le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    writeFile(t.dir, 'utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]));
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
      t.dir,
      'people.csv',
      'email,name,Consent\nok@example.com,OK,yes\nbad@,Bad,yes\nok2@example.com,OK2,yes\nunsubscribed@example.com,U,yes\nworse@,Worse,yes\n',
    );
    const command = (file: string, failures: string) => ['subscribers', 'import', file, '--list', NEWSLETTER, '--failures', failures];
    const first = await email(command('people.csv', 'failed.csv'));
    expect(first.code, first.stderr).toBe(3);
    const lineAndOutcome = (name: string) => rowsOf(name).slice(1).map((row) => row.split(',').slice(0, 5).join(','));
    expect(lineAndOutcome('failed.csv')).toEqual(['bad@,Bad,yes,3,rejected', 'worse@,Worse,yes,6,rejected', 'unsubscribed@example.com,U,yes,5,failed']);
    // Fix one row; the others stay as they were.
    writeFile(t.dir, 'failed.csv', readFileSync(join(t.dir, 'failed.csv'), 'utf8').replace('bad@,', 'bad@example.com,'));
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

describe('gzip input', () => {
  const ROWS = 250;
  const expectAllImported = (r: { code: number; stdout: string; stderr: string }) => {
    expect(r.code, r.stderr).toBe(0);
    expect(summaryOf(r)).toMatchObject({ rows: ROWS, new: ROWS, failed: 0, rejected: 0, complete: true });
    const onList = listAddresses(t.sandbox, LIST);
    for (let i = 0; i < ROWS; i++) expect.soft(onList.has(`person${i}@example.com`)).toBe(true);
  };

  it('a .csv.gz file is read as its CSV', async () => {
    writeFile(t.dir, 'people.csv.gz', gzipSync(peopleCsv(ROWS)));
    expectAllImported(await email(importArgs('people.csv.gz', '--batch-size', '100')));
  });

  it('gzip on standard input is read as its CSV', async () => {
    expectAllImported(await email(importArgs('-', '--batch-size', '100'), gzipSync(peopleCsv(ROWS))));
  });

  it('gzip is known by its first bytes, not its name; its BOM, encoding and the failures file\'s second read work through it', async () => {
    const text = 'email,name,Consent\r\nole@example.com,Olé,yes\r\nbad@,Bäd,yes\r\nunsubscribed@example.com,Ü,yes\r\n';
    writeFile(t.dir, 'export.csv', gzipSync(Buffer.from(text, 'latin1')));
    const r = await email(['subscribers', 'import', 'export.csv', '--list', NEWSLETTER, '--encoding', 'windows-1252', '--failures', 'failed.csv']);
    expect(r.code, r.stderr).toBe(3);
    expect(stored('ole@example.com', NEWSLETTER)?.Name).toBe('Olé');
    expect(rowsOf('failed.csv')).toEqual([
      'email,name,Consent,Line,Outcome,Code,Message',
      'bad@,Bäd,yes,3,rejected,1,"invalid email address ""bad@"""',
      'unsubscribed@example.com,Ü,yes,4,failed,206,Address in the unsubscribed list; not added.',
    ]);
  });

  it('a corrupt or truncated gzip stream is exit 2 naming the file, nothing sent', async () => {
    const whole = gzipSync(peopleCsv(5000));
    writeFile(t.dir, 'truncated.csv.gz', whole.subarray(0, Math.floor(whole.length / 2)));
    const damaged = Buffer.from(whole);
    for (let i = 2000; i < 2100; i++) damaged[i] = damaged[i]! ^ 0x5a;
    writeFile(t.dir, 'damaged.csv.gz', damaged);
    writeFile(t.dir, 'header.csv.gz', Buffer.concat([Buffer.from([0x1f, 0x8b, 0x63]), Buffer.alloc(200, 0x41)]));
    for (const file of ['truncated.csv.gz', 'damaged.csv.gz', 'header.csv.gz']) {
      const r = await email(['subscribers', 'import', file, '--list', LIST]);
      expect(r.code, `${file}: ${r.stderr}`).toBe(2);
      expect(r.stderr, file).toMatch(new RegExp(`^error: ${file.replace(/\./g, '\\.')}: (?:corrupt|truncated) gzip data \\(.+\\); nothing was sent$`, 'm'));
      expect(t.sandbox.requestCount(), file).toBe(0);
    }
  });

  it('a gzip bomb (64 MiB of one character in 64 KiB) is refused by the record bound, nothing sent', async () => {
    writeFile(t.dir, 'bomb.csv.gz', gzipSync(Buffer.concat([Buffer.from('email,name\nok@example.com,'), Buffer.alloc(64 * 1024 * 1024, 0x61)]), { level: 9 }));
    const r = await email(['subscribers', 'import', 'bomb.csv.gz', '--list', LIST, '--consent', 'yes']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: bomb\.csv\.gz: the record at line 2 is longer than 1 MiB; nothing was sent$/m);
    expect(t.sandbox.requestCount()).toBe(0);
  });

  it('an interrupted import of a .csv.gz file is resumed: its journal knows the file', async () => {
    await t.restart({ latencyMs: 40 });
    writeFile(t.dir, 'people.csv.gz', gzipSync(peopleCsv(ROWS)));
    const journal = join(t.dir, `people.csv.gz.${LIST.slice(0, 8)}.import-journal`);
    const batches = () => {
      try {
        return readFileSync(journal, 'utf8').split('\n').slice(1).filter((l) => l.endsWith('}')).length;
      } catch {
        return 0;
      }
    };
    const args = importArgs('people.csv.gz', '--batch-size', '10', '--concurrency', '1');
    const run = startCli(args, { cwd: t.dir, env: t.env });
    for (let i = 0; i < 500 && batches() < 3; i++) await new Promise((r) => setTimeout(r, 20));
    run.child.kill('SIGINT');
    expect(await run.exited, run.output().stderr).toBe(130);
    expect(batches()).toBeGreaterThanOrEqual(3);
    const resumed = await email([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = summaryOf(resumed);
    expect(summary).toMatchObject({ rows: ROWS, resumed: true, complete: true });
    expect(summary.resumedBatches).toBeGreaterThanOrEqual(3);
    const onList = listAddresses(t.sandbox, LIST);
    for (let i = 0; i < ROWS; i++) expect.soft(onList.has(`person${i}@example.com`)).toBe(true);
  });
});

describe('Excel\'s sep= first line', () => {
  it('names the delimiter and is not a row: line numbers stay the file\'s own, and the fixed failures file imports', async () => {
    writeFile(t.dir, 'excel.csv', Buffer.concat([BOM, Buffer.from('sep=;\r\nemail;name;Consent\r\nok@example.com;Ok, Jr.;yes\r\nbad@;Bad, Sr.;yes\r\n')]));
    const first = await email(['subscribers', 'import', 'excel.csv', '--list', LIST, '--failures', 'failed.csv']);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(/^ {2}line 4: rejected \(1\): invalid email address "bad@"/m);
    expect(stored('ok@example.com')?.Name).toBe('Ok, Jr.');
    // The failures file keeps the delimiter and not the sep= line (a spreadsheet that honours it ignores the BOM).
    expect(rowsOf('failed.csv')).toEqual(['email;name;Consent;Line;Outcome;Code;Message', 'bad@;"Bad, Sr.";yes;4;rejected;1;"invalid email address ""bad@"""']);
    writeFile(t.dir, 'failed.csv', readFileSync(join(t.dir, 'failed.csv'), 'utf8').replace('bad@;', 'bad@example.com;'));
    const again = await email(importArgs('failed.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again)).toMatchObject({ rows: 1, new: 1, delimiter: ';' });
    expect(stored('bad@example.com')?.Name).toBe('Bad, Sr.');
  });

  it('a problem found by the structure check names the file\'s own line; --dry-run says where the delimiter came from', async () => {
    writeFile(t.dir, 'quote.csv', 'sep=,\nemail,name,Consent\nok@example.com,"Ok,yes\n');
    const r = await email(['subscribers', 'import', 'quote.csv', '--list', LIST]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: quote\.csv: unclosed quote at line 3$/m);
    writeFile(t.dir, 'tabs.csv', 'SEP=\t\nemail\tname\tConsent\nok@example.com\tOk; Jr.\tyes\n');
    const dry = await email(['subscribers', 'import', 'tabs.csv', '--list', LIST, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: 1, wouldSend: 1, delimiter: '\t', firstRequest: { body: { Subscribers: [{ Name: 'Ok; Jr.' }] } } });
    // A person's dry run says where the delimiter came from.
    const shown = await runCli(['subscribers', 'import', 'tabs.csv', '--list', LIST, '--dry-run'], { cwd: t.dir, env: t.env, stdoutIsTTY: true });
    expect(shown.stdout).toContain('tabs.csv: delimiter tab (its sep= line), utf8; columns:');
  });
});
