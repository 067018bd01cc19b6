// `email subscribers import` in-process against the sandbox: the --json
// summary, exit codes 0/3/2, the failures file, --dry-run, stdin, and messy
// CSVs (BOM + CRLF, quoted line breaks, semicolons, ragged rows, encodings,
// empty and header-only files, binary garbage). Every summary is checked to
// add up to the data rows.
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli.js';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../../helpers/cli.js';
import { startCommandSandbox, type CommandSandbox } from '../../helpers/sandbox.js';
import { expectCountsAddUp, importRequests, listAddresses, peopleCsv, tempDir, writeFile } from '../../helpers/import-files.js';

const LIST = SEED_LIST_IDS.newsletter;
let s: CommandSandbox;
let dir: string;
beforeEach(async () => {
  s = await startCommandSandbox();
  dir = tempDir();
});
afterEach(async () => {
  await s.stop();
});

const importArgs = (file: string, ...more: string[]) => ['subscribers', 'import', file, '--list', LIST, ...more];

/** Runs an import with --json in the temp dir; returns the parsed summary (checked to add up). */
async function jsonImport(file: string, ...more: string[]) {
  const r = await s.email([...importArgs(file, ...more), '--json'], { cwd: dir });
  let summary: Record<string, unknown> & { rows: number; new: number; existing: number; failed: number; rejected: number; duplicates: number };
  try {
    summary = JSON.parse(r.stdout);
  } catch {
    throw new Error(`no JSON summary (exit ${r.code})\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
  expectCountsAddUp(summary);
  return { ...r, summary };
}

const csvRows = (path: string) => readFileSync(path, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');

describe('the summary and exit codes', () => {
  it('exits 0 when every row was imported, with every field of the --json summary CLI.md fixes', async () => {
    writeFile(dir, 'people.csv', peopleCsv(1200));
    const { code, summary, stderr } = await jsonImport('people.csv', '--batch-size', '500');
    expect(code, stderr).toBe(0);
    for (const field of ['rows', 'new', 'existing', 'failed', 'rejected', 'duplicates', 'batches', 'retries', 'elapsedMs', 'resumed', 'service']) {
      expect(summary, field).toHaveProperty(field);
    }
    expect(summary).toMatchObject({ rows: 1200, new: 1200, batches: 3, retries: 0, resumed: false });
    expect(summary.service).toEqual({ TotalUniqueEmailsSubmitted: 1200, TotalExistingSubscribers: 0, TotalNewSubscribers: 1200 });
    // The journal next to the file is gone once every batch was acknowledged.
    expect(existsSync(join(dir, `people.csv.${LIST.slice(0, 8)}.import-journal`))).toBe(false);
  });

  it('the summary in a pipe has plain digits (awk can add them); on a terminal, 1,200 (CLI.md "numbers", issue 20.7)', async () => {
    writeFile(dir, 'people.csv', peopleCsv(1200));
    const piped = await s.email(importArgs('people.csv', '--consent', 'yes'), { cwd: dir });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^Rows\t1200\nNew\t1200\n/);
    expect(piped.stdout).toMatch(/^Service totals\t1200 new, 0 existing of 1200 unique$/m);
    expect(piped.stdout).not.toMatch(/\d,\d{3}/);
    writeFile(dir, 'more.csv', peopleCsv(1200));
    const shown = await s.email(importArgs('more.csv', '--consent', 'yes'), { cwd: dir, stdoutIsTTY: true, env: { EMAIL_PAGER: 'cat' } });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/│ Rows +│ 1,200 +│/);
    expect(shown.stdout).toMatch(/0 new, 1,200 existing of 1,200 unique/);
  });

  it('exits 3 when rows were not imported, lists them on stderr, and writes every one with its columns to --failures', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\nok@example.com,OK,yes\nbad@,Bad,yes\nunsubscribed@example.com,U,yes\nOK@example.com,Again,yes\n');
    const r = await s.email(importArgs('people.csv', '--failures', 'failed.csv'), { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^Rows\t4\nNew\t1\n/);
    expect(r.stderr).toContain('line 3: rejected (1): invalid email address "bad@"');
    expect(r.stderr).toContain('line 4: failed (206): Address in the unsubscribed list; not added.');
    expect(r.stderr).toContain('line 5: duplicate');
    expect(csvRows(join(dir, 'failed.csv'))).toEqual([
      'email,name,Consent,Line,Outcome,Code,Message',
      'bad@,Bad,yes,3,rejected,1,"invalid email address ""bad@"""',
      'OK@example.com,Again,yes,5,duplicate,duplicate,the address of an earlier row (case and surrounding spaces ignored): only the first is sent (address <OK@example.com>; correct it to send this row)',
      'unsubscribed@example.com,U,yes,4,failed,206,Address in the unsubscribed list; not added.',
    ]);
  });

  it('the line saying what was not imported agrees with the failures file: it names the duplicates the file also lists (issue 17.4)', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\nok@example.com,OK,yes\nbad@,Bad,yes\nOK@example.com,Again,yes\nok2@example.com,X,yes\nOK2@example.com,Y,yes\n');
    const r = await s.email(importArgs('people.csv', '--failures', 'failed.csv'), { cwd: dir });
    expect(r.code).toBe(3);
    expect(csvRows(join(dir, 'failed.csv'))).toHaveLength(1 + 3);
    expect(r.stderr).toMatch(/\nerror: 1 of 5 rows not imported \(1 rejected before sending\): see \S*failed\.csv, which also lists 2 duplicates \(imported once, from an earlier row\)\n/);
    expect(r.stdout).toMatch(/^Failures file\t\S*failed\.csv \(3 rows: 1 rejected, 2 duplicates\)$/m);
    // Without --failures there is no file to agree with: the line counts what was not imported.
    const plain = await s.email(importArgs('people.csv'), { cwd: dir });
    expect(plain.stderr).toMatch(/\nerror: 1 of 5 rows not imported \(1 rejected before sending\)\n/);
  });

  it('exits 0 when the only rows not sent are duplicates (their address was imported)', async () => {
    writeFile(dir, 'people.csv', 'email,Consent\na@example.com,yes\nA@example.com,yes\n');
    const { code, summary } = await jsonImport('people.csv', '--allow-empty-names');
    expect(code).toBe(0);
    expect(summary).toMatchObject({ rows: 2, new: 1, duplicates: 1 });
  });

  it('a fixed failures file imports again as it is: its Line, Outcome, Code and Message columns are ignored', async () => {
    writeFile(dir, 'people.csv', 'email,name,Company,Consent\nbad@,Bad,Acme,yes\n');
    await s.email(importArgs('people.csv', '--failures', 'failed.csv'), { cwd: dir });
    const fixed = readFileSync(join(dir, 'failed.csv'), 'utf8').replace('bad@,', 'bad@example.com,');
    writeFile(dir, 'fixed.csv', fixed);
    const before = s.sandbox.requestCount();
    const { code, summary } = await jsonImport('fixed.csv');
    expect(code).toBe(0);
    expect(summary).toMatchObject({ rows: 1, new: 1 });
    expect(importRequests(s.sandbox, before)[0]!.body.Subscribers[0]).toEqual({ EmailAddress: 'bad@example.com', Name: 'Bad', CustomFields: [{ Key: 'Company', Value: 'Acme' }], ConsentToTrack: 'Yes' });
  });
});

describe('importing a failures file again (issue 17.4)', () => {
  const DUPLICATE = 'ADA@example.com,Impostor,Nowhere,yes';
  /** people.csv imported with --failures failed.csv, then failed.csv with its rejected row fixed, as fixed.csv. */
  async function fixedFailuresFile() {
    writeFile(dir, 'people.csv', `email,name,Company,Consent\nada@example.com,Ada,Engines,yes\nbad@,Bad,Paris,yes\n${DUPLICATE}\n`);
    const first = await s.email(importArgs('people.csv', '--failures', 'failed.csv'), { cwd: dir });
    expect(first.code, first.stderr).toBe(3);
    expect(csvRows(join(dir, 'failed.csv')).slice(1).map((row) => row.split(',')[5])).toEqual(['rejected', 'duplicate']);
    writeFile(dir, 'fixed.csv', readFileSync(join(dir, 'failed.csv'), 'utf8').replace('bad@,', 'bad@example.com,'));
  }

  it('skips its duplicate rows: only the fixed rows are sent, and the imported row keeps its values', async () => {
    await fixedFailuresFile();
    const before = s.sandbox.requestCount();
    const { code, summary, stderr } = await jsonImport('fixed.csv', '--failures', 'again.csv');
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ rows: 2, new: 1, duplicates: 1, duplicatesFromFailuresFile: 1, codes: { duplicate: 1 } });
    expect(importRequests(s.sandbox, before).flatMap((r) => r.body.Subscribers.map((e) => e.EmailAddress))).toEqual(['bad@example.com']);
    const ada = s.sandbox.state().lists[LIST]!.Subscribers['ada@example.com']!;
    expect(ada.Name).toBe('Ada');
    expect(ada.CustomFields['[Company]']).toEqual(['Engines']);
    // The round trip repeats: again.csv lists the row as a duplicate once more, and importing it sends nothing.
    const again = csvRows(join(dir, 'again.csv'));
    expect(again).toHaveLength(2);
    expect(again[0]).toBe('email,name,Company,Consent,Line,Outcome,Code,Message');
    // Its Line is the line in people.csv, where it came from (4), not in fixed.csv (3).
    expect(again[1]).toMatch(new RegExp(`^${DUPLICATE},4,duplicate,duplicate,`));
    const third = await jsonImport('again.csv', '--map', 'Company=Company');
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toBe('');
    expect(third.summary).toMatchObject({ rows: 1, new: 0, duplicates: 1, duplicatesFromFailuresFile: 1, batches: 0 });
    expect(importRequests(s.sandbox, before)).toHaveLength(1);
  });

  it('a later row of an imported address is a duplicate even when it would be rejected: fixing it in the failures file cannot overwrite the imported row', async () => {
    writeFile(dir, 'people.csv', 'email,name,Company,Consent\ncleo@example.com,Cleo,Engines,yes\n CLEO@example.com ,Impostor,Nowhere,\nbob@,Bob,Paris,yes\n');
    const first = await jsonImport('people.csv', '--failures', 'failed.csv', '--map', 'Company=Company');
    expect(first.code, first.stderr).toBe(3);
    expect(first.summary).toMatchObject({ rows: 3, new: 1, rejected: 1, duplicates: 1 });
    expect(csvRows(join(dir, 'failed.csv')).slice(1).map((row) => row.split(',').slice(4, 6))).toEqual([['3', 'duplicate'], ['4', 'rejected']]);
    // The user fixes every row they see refused, the consent of the duplicate included.
    writeFile(dir, 'fixed.csv', readFileSync(join(dir, 'failed.csv'), 'utf8').replace('bob@,', 'bob@example.com,').replace('Nowhere,,', 'Nowhere,yes,'));
    const again = await jsonImport('fixed.csv', '--map', 'Company=Company');
    expect(again.code, again.stderr).toBe(0);
    const cleo = s.sandbox.state().lists[LIST]!.Subscribers['cleo@example.com']!;
    expect(cleo.Name).toBe('Cleo');
    expect(cleo.CustomFields['[Company]']).toEqual(['Engines']);
  });

  it('an invalid first row does not take its address: a later valid row of it is sent, and the first row stays rejected', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\ndora@example.com,Dora,\nDORA@example.com,Dora L,yes\n');
    const r = await jsonImport('people.csv');
    expect(r.code, r.stderr).toBe(3);
    expect(r.summary).toMatchObject({ rows: 2, new: 1, rejected: 1, duplicates: 0 });
  });

  it('cells made safe for spreadsheets in the failures file come back as they were when it is imported again', async () => {
    // A name that looks like a formula gets a leading apostrophe in the failures file (CLI.md "untrusted text"); one that starts with an apostrophe already keeps it.
    writeFile(dir, 'people.csv', "email,name,Company,Consent\neve@,+Eve,+44 20 7946 0000,yes\nfay@,'=Fay,-1-,yes\n");
    const first = await jsonImport('people.csv', '--failures', 'failed.csv', '--map', 'Company=Company');
    expect(first.summary).toMatchObject({ rows: 2, rejected: 2 });
    writeFile(dir, 'fixed.csv', readFileSync(join(dir, 'failed.csv'), 'utf8').replace('eve@,', 'eve@example.com,').replace('fay@,', 'fay@example.com,'));
    const again = await jsonImport('fixed.csv', '--map', 'Company=Company');
    expect(again.code, again.stderr).toBe(0);
    const eve = s.sandbox.state().lists[LIST]!.Subscribers['eve@example.com']!;
    expect(eve.Name).toBe('+Eve');
    expect(eve.CustomFields['[Company]']).toEqual(['+44 20 7946 0000']);
    const fay = s.sandbox.state().lists[LIST]!.Subscribers['fay@example.com']!;
    expect(fay.Name).toBe("'=Fay");
    expect(fay.CustomFields['[Company]']).toEqual(['-1-']);
  });

  it('the failures file of a failures file has the user\'s columns and one Line, Outcome, Code, Message block', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\nann@,Ann,yes\n');
    await jsonImport('people.csv', '--failures', 'failed.csv');
    await jsonImport('failed.csv', '--failures', 'again.csv');
    const rows = csvRows(join(dir, 'again.csv'));
    expect(rows[0]).toBe('email,name,Consent,Line,Outcome,Code,Message');
    expect(rows[1]).toMatch(/^ann@,Ann,yes,2,rejected,1,/);
  });

  it('says so in the summary table and in the rows not imported, and --dry-run would send only the fixed rows', async () => {
    await fixedFailuresFile();
    const dry = await jsonImport('fixed.csv', '--dry-run');
    expect(dry.summary).toMatchObject({ rows: 2, wouldSend: 1, duplicates: 1, duplicatesFromFailuresFile: 1 });
    const r = await s.email(importArgs('fixed.csv'), { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Duplicates\t1 \(listed as duplicates by fixed\.csv, a failures file: not sent\)$/m);
    expect(r.stderr).toMatch(/line 3: duplicate: listed as a duplicate by the failures file of an earlier import \(address <ADA@example\.com>, imported from an earlier row\): not sent; correct its address, or empty its Outcome cell, to send it <ADA@example\.com>/);
  });

  it('a duplicate row whose Outcome cell the user emptied is sent; an Outcome column that is not the failures file\'s is data', async () => {
    await fixedFailuresFile();
    writeFile(dir, 'forced.csv', readFileSync(join(dir, 'fixed.csv'), 'utf8').replace(',4,duplicate,', ',4,,'));
    const forced = await jsonImport('forced.csv');
    expect(forced.summary).toMatchObject({ rows: 2, new: 1, existing: 1, duplicates: 0, duplicatesFromFailuresFile: 0 });
    // Outcome anywhere but in the four trailing columns, or given a target by --map, is the user's column.
    writeFile(dir, 'own.csv', 'email,Outcome,Consent\nown1@example.com,duplicate,yes\n');
    expect((await jsonImport('own.csv', '--allow-empty-names')).summary).toMatchObject({ rows: 1, new: 1, duplicates: 0 });
    writeFile(dir, 'mapped.csv', 'email,Consent,Line,Outcome,Code,Message\nown2@example.com,yes,2,duplicate,x,y\n');
    expect((await jsonImport('mapped.csv', '--allow-empty-names', '--map', 'Outcome=Outcome')).summary).toMatchObject({ rows: 1, new: 1, duplicates: 0 });
    expect((await jsonImport('mapped.csv', '--allow-empty-names')).summary).toMatchObject({ rows: 1, new: 0, duplicates: 1 });
  });
});

describe('files that cannot be imported: exit 2, nothing sent', () => {
  const refused = async (file: string, message: RegExp, ...more: string[]) => {
    const before = s.sandbox.requestCount();
    const r = await s.email(importArgs(file, ...more), { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(s.sandbox.requestCount()).toBe(before);
    return r;
  };

  it('an unclosed quote, named by file and line, even after many good rows', async () => {
    writeFile(dir, 'people.csv', `${peopleCsv(3000)}late@example.com,"Unclosed,Co,yes\nmore@example.com,M,Co,yes\n`);
    await refused('people.csv', /^error: people\.csv: unclosed quote at line 3002\n/);
  });
  it('no email column, listing the columns', async () => {
    writeFile(dir, 'people.csv', 'name,company\nAda,Engines\n');
    await refused('people.csv', /people\.csv: no email column\nhint: None has "mail" in its name; the columns are "name", "company": name the one with --map/);
  });
  it('no consent column and no --consent: one error naming --consent, before anything is sent, also with --dry-run (issue 17.6)', async () => {
    writeFile(dir, 'people.csv', peopleCsv(5400, { header: 'email,name,Company,Opt In' }));
    for (const more of [[], ['--dry-run'], ['--json']]) {
      const r = await refused('people.csv', /people\.csv has no consent column, and no --consent was given/, ...more);
      if (more[0] === '--json') {
        expect(JSON.parse(r.stderr)).toMatchObject({ error: { kind: 'usage', code: 214 } });
        continue;
      }
      expect(r.stderr).toMatch(/^error 214: people\.csv has no consent column/);
      expect(r.stderr.trim().split('\n').length, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/\nhint: Give --consent yes\|no\|unchanged for every row, or name the column with --map "<Column>=ConsentToTrack"/);
    }
    expect(readdirSync(dir)).toEqual(['people.csv']);
    // Either way out imports the file.
    const given = await jsonImport('people.csv', '--consent', 'yes');
    expect(given.summary).toMatchObject({ rows: 5400, new: 5400 });
    const mapped = await jsonImport('people.csv', '--map', 'Opt In=ConsentToTrack');
    expect(mapped.summary).toMatchObject({ rows: 5400, existing: 5400 });
  });
  it('an empty file', async () => {
    writeFile(dir, 'empty.csv', '');
    await refused('empty.csv', /empty\.csv is empty: there is no header row/);
  });
  it('binary garbage, and an Excel workbook', async () => {
    writeFile(dir, 'garbage.csv', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) % 256)));
    await refused('garbage.csv', /does not look like CSV text/);
    writeFile(dir, 'late-garbage.csv', Buffer.concat([Buffer.from(peopleCsv(2000)), Buffer.from([0, 1, 2, 3])]));
    await refused('late-garbage.csv', /binary data \(a NUL byte\) at line 2002/);
    writeFile(dir, 'book.csv', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64)]));
    await refused('book.csv', /ZIP archive/);
  });
  it('Windows-1252 text read as UTF-8, with the way out in the hint', async () => {
    writeFile(dir, 'cp1252.csv', Buffer.from('email,name,Consent\nz@example.com,Zoë,yes\n', 'latin1'));
    const r = await refused('cp1252.csv', /cp1252\.csv is not UTF-8 text: invalid byte at line 2/);
    expect(r.stderr).toContain('--encoding windows-1252');
  });
  it('a missing file, a bad --map, a bad --delimiter, --resume with --dry-run', async () => {
    writeFile(dir, 'people.csv', peopleCsv(3));
    await refused('nope.csv', /nope\.csv: no such file/);
    await refused('people.csv', /has no column "Mail"/, '--map', 'Mail=EmailAddress');
    await refused('people.csv', /--delimiter must be one character/, '--delimiter', ';;');
    await refused('people.csv', /nothing to --resume/, '--dry-run', '--resume');
  });
});

describe('messy CSV files', () => {
  it('a Mailchimp export: BOM, CRLF, "Email Address" + "First Name" + "Last Name", quoted line breaks (lines still right)', async () => {
    const csv =
      '\uFEFF"Email Address","First Name","Last Name","MEMBER_RATING","NOTES"\r\n' +
      '"ada@example.com","Ada","Lovelace","5","first\r\nsecond"\r\n' +
      '"bob@","Bob","B","2",""\r\n' +
      '"cy@example.com","Cy","","1","multi\r\nline\r\nnote"\r\n' +
      '"dee@","Dee","D","1",""\r\n';
    writeFile(dir, 'mailchimp.csv', csv);
    const { summary, code } = await jsonImport('mailchimp.csv', '--consent', 'yes', '--failures', 'failed.csv');
    expect(code).toBe(3);
    expect(summary).toMatchObject({ rows: 4, existing: 1, new: 1, rejected: 2 });
    expect(csvRows(join(dir, 'failed.csv')).map((l) => l.split(',').slice(5, 7).join(','))).toEqual(['Line,Outcome', '4,rejected', '8,rejected']);
    const sent = importRequests(s.sandbox)[0]!.body.Subscribers;
    expect(sent[0]).toEqual({
      EmailAddress: 'ada@example.com',
      Name: 'Ada Lovelace',
      CustomFields: [{ Key: 'MEMBER_RATING', Value: '5' }, { Key: 'NOTES', Value: 'first\r\nsecond' }],
      ConsentToTrack: 'Yes',
    });
    expect(sent[1]).toMatchObject({ EmailAddress: 'cy@example.com', Name: 'Cy' });
  });

  it('semicolons (detected), ragged rows, mixed line endings and blank lines', async () => {
    writeFile(dir, 'semi.csv', 'email;name;Company;Consent\r\na@example.com;A;Acme, Inc.;yes\nb@example.com;B\r\n\r\nc@example.com;C;;yes;;\rd@example.com;D;X;yes;surplus\n');
    const { summary } = await jsonImport('semi.csv', '--failures', 'f.csv');
    expect(summary).toMatchObject({ rows: 4, new: 2, rejected: 2, blankLines: 1, delimiter: ';' });
    // Fewer cells than the header and more are refused alike (CLI.md "Names").
    expect(summary.codes).toEqual({ 'missing-fields': 1, 'extra-fields': 1 });
    const sent = importRequests(s.sandbox)[0]!.body.Subscribers;
    expect(sent.map((e) => e.EmailAddress)).toEqual(['a@example.com', 'c@example.com']);
    expect(sent[0]).toMatchObject({ CustomFields: [{ Key: 'Company', Value: 'Acme, Inc.' }] });
    // The failures file keeps the input's delimiter; cells beyond the header go into the message.
    const rows = csvRows(join(dir, 'f.csv'));
    expect(rows[0]).toBe('email;name;Company;Consent;Line;Outcome;Code;Message');
    expect(rows[1]).toMatch(/^b@example\.com;B;;;3;rejected;missing-fields;"the row has 2 fields and the header 4/);
    expect(rows[2]).toMatch(/^d@example\.com;D;X;yes;6;rejected;extra-fields;"the row has 5 fields and the header 4.*\[extra cells: ""surplus""\]"$/);
  });

  it('line endings that change far into the file (after megabytes of \\n alone) still end rows: no \\r is left in a value', async () => {
    const head = peopleCsv(30_000);
    writeFile(dir, 'late.csv', `${head}late1@example.com,Late One,Co,yes\r\nlate2@example.com,Late Two,Co,yes\rlate3@example.com,Late Three,Co,yes\r\n`);
    const { code, summary } = await jsonImport('late.csv');
    expect(code).toBe(0);
    expect(summary).toMatchObject({ rows: 30_003, new: 30_003 });
    // Batches go at once, so the last one sent need not be the last one the sandbox received.
    const last = importRequests(s.sandbox)
      .flatMap((r) => r.body.Subscribers)
      .filter((e) => /^late\d@/.test(e.EmailAddress));
    expect(last).toEqual(
      ['late1', 'late2', 'late3'].map((who, i) => ({
        EmailAddress: `${who}@example.com`,
        Name: `Late ${['One', 'Two', 'Three'][i]}`,
        CustomFields: [{ Key: 'Company', Value: 'Co' }],
        ConsentToTrack: 'Yes',
      })),
    );
  });

  it('tab-separated UTF-16 (Excel "Unicode Text") and --encoding windows-1252', async () => {
    writeFile(dir, 'unicode.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\tname\tConsent\r\nzoe@example.com\tZoë\tyes\r\n', 'utf16le')]));
    const utf16 = await jsonImport('unicode.txt');
    expect(utf16.summary).toMatchObject({ rows: 1, new: 1, delimiter: '\t', encoding: 'utf16le' });
    writeFile(dir, 'cp1252.csv', Buffer.from('email,name,Consent\nrene@example.com,René,yes\n', 'latin1'));
    const cp = await jsonImport('cp1252.csv', '--encoding', 'windows-1252');
    expect(cp.summary).toMatchObject({ rows: 1, new: 1 });
    const names = importRequests(s.sandbox).map((r) => r.body.Subscribers[0]!);
    expect(names.map((e) => (e as { Name?: string }).Name)).toEqual(['Zoë', 'René']);
  });

  it('a header-only file: nothing to send, exit 0', async () => {
    writeFile(dir, 'header.csv', 'email,name,Consent\r\n');
    const { code, summary } = await jsonImport('header.csv');
    expect(code).toBe(0);
    expect(summary).toMatchObject({ rows: 0, batches: 0 });
    expect(importRequests(s.sandbox)).toHaveLength(0);
  });

  it('--map, --delimiter and --multi-separator', async () => {
    writeFile(dir, 'pipes.csv', 'Work Mail|Notes|Tags|Consent\na@example.com|secret|News/Events|yes\n');
    const { summary } = await jsonImport('pipes.csv', '--allow-empty-names', '--delimiter', '|', '--map', 'Work Mail=EmailAddress', '--map', 'Notes=-', '--map', 'Tags=Interests', '--multi-separator', '/');
    expect(summary).toMatchObject({ rows: 1, new: 1 });
    expect(importRequests(s.sandbox)[0]!.body.Subscribers[0]).toEqual({
      EmailAddress: 'a@example.com',
      Name: '',
      CustomFields: [{ Key: 'Interests', Value: 'News' }, { Key: 'Interests', Value: 'Events' }],
      ConsentToTrack: 'Yes',
    });
    expect(s.sandbox.state().lists[LIST]!.Subscribers['a@example.com']!.CustomFields['[Interests]']).toEqual(['News', 'Events']);
  });

  it('reads standard input for -', async () => {
    const r = await s.email([...importArgs('-'), '--json'], { cwd: dir, stdin: peopleCsv(30) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 30, new: 30, input: 'stdin' });
    expect(listAddresses(s.sandbox, LIST).has('person29@example.com')).toBe(true);
  });

  it('--only-mapped sends no vendor column as a custom field, and the dry run says which are ignored (issue 13.15)', async () => {
    writeFile(dir, 'mailchimp.csv', 'Email Address,First Name,Last Name,LEID,EUID,TAGS\nada@example.com,Ada,Lovelace,123,abc,"a,b"\n');
    const dry = await s.email([...importArgs('mailchimp.csv'), '--only-mapped', '--dry-run', '--consent', 'yes'], { cwd: dir, stdoutIsTTY: true, env: {} });
    expect(dry.code, dry.stderr).toBe(0);
    for (const vendor of ['LEID', 'EUID', 'TAGS']) expect(dry.stdout).toMatch(new RegExp(`${vendor}\\s*│\\s*-\\s*│\\s*not mapped \\(--only-mapped\\)`));
    const r = await s.emailSent([...importArgs('mailchimp.csv'), '--only-mapped', '--consent', 'yes'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const body = r.sent.find((q) => q.path.endsWith('/import'))!.body as { Subscribers: { CustomFields: unknown[]; Name: string }[] };
    expect(body.Subscribers[0]).toMatchObject({ Name: 'Ada Lovelace', CustomFields: [] });
  });

  it('says it is reading standard input, and how to end it, when that is a terminal (issue 13.8)', async () => {
    const atTerminal = await s.email([...importArgs('-'), '--dry-run'], { cwd: dir, stdin: peopleCsv(2), stdinIsTTY: true, env: {} });
    expect(atTerminal.code, atTerminal.stderr).toBe(0);
    expect(atTerminal.stderr).toMatch(/^Reading CSV from standard input: paste or type the rows, then press Ctrl-D on a new line/m);
    const piped = await s.email([...importArgs('-'), '--dry-run'], { cwd: dir, stdin: peopleCsv(2), env: {} });
    expect(piped.stderr).not.toMatch(/Reading CSV from standard input/);
  });
});

describe('--dry-run', () => {
  it('the summary table for people has the dry run\'s own rows, chosen from its counts', async () => {
    writeFile(dir, 'people.csv', 'EmailAddress,Name,Consent\nada@example.com,Ada,yes\nbad@,B,yes\n');
    const dry = await s.email([...importArgs('people.csv'), '--dry-run'], { cwd: dir, stdoutIsTTY: true, env: {} });
    expect(dry.code, dry.stderr).toBe(3);
    expect(dry.stdout).toMatch(/Would send\s*│\s*1\b/);
    expect(dry.stdout).toMatch(/Batches \(would send\)\s*│\s*1\b/);
    expect(dry.stdout).not.toMatch(/Failed at the service|Retries/);
  });

  it('reports the mapping, every rejected row and duplicate, the first request and the counts, sends nothing and needs no key', async () => {
    writeFile(dir, 'people.csv', 'Email Address,First Name,Last Name,Birthday,Consent\nada@example.com,Ada,Lovelace,1815-12-10,yes\nbad@,B,B,,yes\nADA@example.com,A,L,,yes\nc@example.com,C,,2020/1/2,\n');
    const before = s.sandbox.requestCount();
    const r = await runCli([...importArgs('people.csv'), '--dry-run', '--json'], { cwd: dir, env: { EMAIL_BASE_URL: undefined, EMAIL_API_KEY: undefined } });
    expect(r.code, r.stderr).toBe(3);
    expect(s.sandbox.requestCount()).toBe(before);
    const report = JSON.parse(r.stdout);
    expectCountsAddUp(report);
    expect(report).toMatchObject({ dryRun: true, rows: 4, wouldSend: 1, rejected: 2, duplicates: 1, batches: 1 });
    expect(report.mapping).toEqual([
      { column: 'Email Address', position: 1, target: 'EmailAddress', why: 'recognised header' },
      { column: 'First Name', position: 2, target: 'Name', why: 'recognised header (First Name + Last Name)' },
      { column: 'Last Name', position: 3, target: 'Name', why: 'recognised header (First Name + Last Name)' },
      { column: 'Birthday', position: 4, target: 'CustomFields[Birthday]', why: 'other column' },
      { column: 'Consent', position: 5, target: 'ConsentToTrack', why: 'recognised header' },
    ]);
    expect(report.problems.map((p: { Line: number; Outcome: string; Code: string }) => [p.Line, p.Outcome, p.Code])).toEqual([
      [3, 'rejected', '1'],
      [4, 'duplicate', 'duplicate'],
      [5, 'rejected', '214'],
    ]);
    expect(report.firstRequest).toEqual({
      method: 'POST',
      path: `/email/subscribers/${LIST}/import`,
      body: {
        Subscribers: [{ EmailAddress: 'ada@example.com', Name: 'Ada Lovelace', CustomFields: [{ Key: 'Birthday', Value: '1815/12/10' }], ConsentToTrack: 'Yes' }],
        Resubscribe: false,
        QueueSubscriptionBasedAutoResponders: false,
        RestartSubscriptionBasedAutoresponders: false,
      },
    });
  });

  it('prints a readable report on a terminal and exits 0 when every row would be sent', async () => {
    writeFile(dir, 'people.csv', peopleCsv(5));
    const r = await runCli([...importArgs('people.csv'), '--dry-run'], { cwd: dir, stdoutIsTTY: true, env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Company');
    expect(r.stdout).toContain('CustomFields[Company]');
    expect(r.stdout).toContain('"EmailAddress": "person0@example.com"');
    expect(r.stdout).toContain('… 2 more');
    expect(r.stderr).toContain('Dry run: nothing was sent.');
    // Issue 13.7: one word for "no such rows", and no rate made up from a few milliseconds.
    expect(`${r.stdout}${r.stderr}`).not.toContain('(no results)');
    // The titles are on stdout with their tables (a pager keeps them together).
    expect(r.stdout).toMatch(/Rows that would not be imported:\n {2}\(none\)\n/);
    expect(r.stdout).toMatch(/Elapsed\s+│?\s*\d+ ms\s/);
    expect(r.stdout).not.toMatch(/rows\/s/);
  });
});

describe('journal', () => {
  it('refuses to start over an unfinished import without --resume, and --resume finishes it', async () => {
    writeFile(dir, 'people.csv', peopleCsv(2500));
    s.sandbox.failNext({ path: /\/import$/, status: 500, times: 4 });
    const first = await jsonImport('people.csv', '--concurrency', '1');
    expect(first.code).toBe(3);
    expect(first.summary).toMatchObject({ new: 1500, failed: 1000, unacknowledgedBatches: 1 });
    expect(first.stderr).toContain('--resume to send only those again');
    const journal = join(dir, `people.csv.${LIST.slice(0, 8)}.import-journal`);
    expect(first.summary.journal).toBe(journal);

    const again = await s.email(importArgs('people.csv'), { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/an unfinished import's journal exists/);

    const resumed = await jsonImport('people.csv', '--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.summary).toMatchObject({ rows: 2500, new: 2500, failed: 0, resumed: true, resumedBatches: 2 });
    expect(existsSync(journal)).toBe(false);
  });

  it('--resume or --restart of stdin needs --journal', async () => {
    for (const flag of ['--resume', '--restart']) {
      const r = await s.email(importArgs('-', flag), { cwd: dir, stdin: peopleCsv(2) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${flag} needs --journal <file> when the CSV comes from standard input`);
    }
  });
});

describe('--concurrency', () => {
  it('puts that many batches on the wire at once, beyond the default pool of 8 connections', async () => {
    // A loopback proxy in front of the sandbox holds each request 150 ms and
    // counts how many are in progress at once.
    let inFlight = 0;
    let most = 0;
    const target = new URL(s.sandbox.url);
    const proxy = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        setTimeout(() => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res).on('finish', () => inFlight--);
        }, 150);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      // Slow start sends two at a time for its first round, then rounds of 4 and 8 (26 batches) before 12 are kept in flight.
      writeFile(dir, 'people.csv', peopleCsv(400));
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const r = await s.email([...importArgs('people.csv', '--batch-size', '10', '--concurrency', '12'), '--json'], { cwd: dir, env: { EMAIL_BASE_URL: url } });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 400, new: 400, batches: 40 });
      expect(most).toBe(12);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('files the user names', () => {
  it('refuses --failures naming the input through a symlink, or itself, before anything is sent; the input is untouched', async () => {
    const content = peopleCsv(3000);
    const input = writeFile(dir, 'big.csv', content);
    symlinkSync(input, join(dir, 'link.csv'));
    const before = s.sandbox.requestCount();
    for (const failures of ['link.csv', 'big.csv', './sub/../big.csv']) {
      const r = await s.email(importArgs('big.csv', '--failures', failures), { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^error: --failures \S+ is the input file big\.csv/);
      expect(r.stdout).toBe('');
    }
    // The input named through the link, the failures file by its real name.
    const viaLink = await s.email(importArgs('link.csv', '--failures', 'big.csv'), { cwd: dir });
    expect(viaLink.code, viaLink.stderr).toBe(2);
    expect(s.sandbox.requestCount()).toBe(before);
    expect(readFileSync(input, 'utf8')).toBe(content);
    expect(readdirSync(dir).sort()).toEqual(['big.csv', 'link.csv']);
  });

  it('refuses --failures naming the journal (given, or the default one next to the input)', async () => {
    writeFile(dir, 'people.csv', peopleCsv(10));
    const before = s.sandbox.requestCount();
    const given = await s.email(importArgs('people.csv', '--journal', 'j.jsonl', '--failures', 'j.jsonl'), { cwd: dir });
    expect(given.code, given.stderr).toBe(2);
    expect(given.stderr).toMatch(/^error: --failures .*j\.jsonl.* is the journal/);
    const implicit = await s.email(importArgs('people.csv', '--failures', `people.csv.${LIST.slice(0, 8)}.import-journal`), { cwd: dir });
    expect(implicit.code, implicit.stderr).toBe(2);
    expect(implicit.stderr).toMatch(/is the journal/);
    expect(s.sandbox.requestCount()).toBe(before);
  });

  it('creates the failures file 0600, and refuses a symlink planted at its path, neither following nor replacing it', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\nok@example.com,OK,yes\nbad@,Bad,yes\n');
    const ok = await s.email(importArgs('people.csv', '--failures', 'failed.csv'), { cwd: dir });
    expect(ok.code, ok.stderr).toBe(3);
    const failures = join(dir, 'failed.csv');
    expect(lstatSync(failures).mode & 0o777).toBe(0o600);
    expect(csvRows(failures)).toEqual(['email,name,Consent,Line,Outcome,Code,Message', 'bad@,Bad,yes,3,rejected,1,"invalid email address ""bad@"""']);
    const victim = writeFile(dir, 'victim.txt', 'precious\n');
    symlinkSync(victim, join(dir, 'linked.csv'));
    const r = await s.email(importArgs('people.csv', '--failures', 'linked.csv'), { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--failures \S+linked\.csv is a symbolic link, never followed or replaced/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(dir, 'linked.csv')).isSymbolicLink()).toBe(true);
    // Nothing else is left behind (no temporary file).
    expect(readdirSync(dir).sort()).toEqual(['failed.csv', 'linked.csv', 'people.csv', 'victim.txt']);
  });

  it('a failures file that already exists is replaced, and still 0600', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\nbad@,Bad,yes\n');
    const failures = writeFile(dir, 'failed.csv', 'old content\n');
    chmodSync(failures, 0o644);
    const r = await s.email(importArgs('people.csv', '--failures', 'failed.csv'), { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(statSync(failures).mode & 0o777).toBe(0o600);
    expect(csvRows(failures)).toHaveLength(2);
  });
});

describe('outcomes an operator can act on', () => {
  it('a refused key stops the import at the first batch with one error (exit 4), no line per row, no journal; the rerun without --resume proceeds', async () => {
    writeFile(dir, 'people.csv', peopleCsv(4000));
    const before = s.sandbox.requestCount();
    const r = await s.email(importArgs('people.csv', '--failures', 'failed.csv', '--concurrency', '1'), { cwd: dir, env: { EMAIL_API_KEY: 'wrong-key-1234' } });
    expect(r.code, r.stderr).toBe(4);
    expect(importRequests(s.sandbox, before)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/http-401/);
    expect(r.stderr).not.toMatch(/Rows not imported/);
    expect(r.stderr).not.toMatch(/--resume/);
    expect(r.stdout).not.toMatch(/--resume/);
    expect(r.stderr.match(/^error/gm)).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*(refused|Invalid API key)/m);
    expect(existsSync(join(dir, `people.csv.${LIST.slice(0, 8)}.import-journal`))).toBe(false);

    const again = await jsonImport('people.csv');
    expect(again.code, again.stderr).toBe(0);
    expect(again.summary).toMatchObject({ rows: 4000, new: 4000 });
  });

  it('--json: a 401 is one error, and the summary shows no row failed', async () => {
    writeFile(dir, 'people.csv', peopleCsv(2500));
    const r = await s.email([...importArgs('people.csv', '--concurrency', '2', '--map', 'Company=Company'), '--json'], { cwd: dir, env: { EMAIL_API_KEY: 'wrong-key-1234' } });
    expect(r.code, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ new: 0, failed: 0, complete: false });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a journal that records no acknowledged batch never blocks a new run', async () => {
    writeFile(dir, 'people.csv', peopleCsv(20));
    const journal = join(dir, 'people.journal');
    // An import killed before its first acknowledgement leaves only the header line.
    await s.email(importArgs('people.csv', '--journal', 'people.journal'), { cwd: dir, env: { EMAIL_API_KEY: 'wrong-key-1234' } });
    writeFile(dir, 'people.journal', `${JSON.stringify({ kind: 'email-import-journal', version: 1, input: { name: 'people.csv', size: 1, sha256: 'x', hashed: 'head' }, options: {}, createdAt: new Date(0).toISOString() })}\n`);
    const r = await jsonImport('people.csv', '--journal', 'people.journal');
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({ rows: 20, new: 20, resumed: false });
    expect(existsSync(journal)).toBe(false);
  });

  it('a service failing every request: nothing imported, exit 1 (not 3), and no journal is left', async () => {
    writeFile(dir, 'people.csv', peopleCsv(2000));
    s.sandbox.failNext({ path: /\/import$/, status: 500, times: 1000 });
    const r = await jsonImport('people.csv', '--concurrency', '1');
    expect(r.code, r.stderr).toBe(1);
    expect(r.summary).toMatchObject({ new: 0, existing: 0, failed: 2000 });
    expect(r.summary.journal).toBeUndefined();
    expect(existsSync(join(dir, `people.csv.${LIST.slice(0, 8)}.import-journal`))).toBe(false);
    expect(r.stderr).toMatch(/2000 rows not imported/);
    expect(r.stderr).not.toMatch(/--resume/);
  });

  it('a dry run exits as the import would: 2 when no row would be sent, 3 when some would', async () => {
    writeFile(dir, 'bad.csv', 'email,name,Consent\nbad@,Bad,yes\n');
    expect((await runCli([...importArgs('bad.csv'), '--dry-run'], { cwd: dir, env: {} })).code).toBe(2);
    writeFile(dir, 'mixed.csv', 'email,name,Consent\nbad@,Bad,yes\nok@example.com,OK,yes\n');
    expect((await runCli([...importArgs('mixed.csv'), '--dry-run'], { cwd: dir, env: {} })).code).toBe(3);
  });

  it('every row rejected before sending: exit 2, nothing sent', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\nbad@,Bad,yes\nworse,Worse,yes\n');
    const before = s.sandbox.requestCount();
    const r = await jsonImport('people.csv');
    expect(r.code, r.stderr).toBe(2);
    expect(r.summary).toMatchObject({ rows: 2, rejected: 2 });
    expect(s.sandbox.requestCount()).toBe(before);
    expect(r.stderr).toMatch(/2 rows not imported.*nothing was sent/);
  });

  it('with --json, a partial import (exit 3) says on stderr in one line what was not imported and where the rows are', async () => {
    writeFile(dir, 'people.csv', 'email,name,Consent\nok@example.com,OK,yes\nbad@,Bad,yes\nunsubscribed@example.com,U,yes\n');
    const r = await jsonImport('people.csv', '--failures', 'failed.csv');
    expect(r.code).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/2 of 3 rows not imported \(1 failed at the service, 1 rejected before sending\): see .*failed\.csv/);
  });

  it('a record too long to read right after the header: exit 2, and no word of a journal or --resume since nothing was sent', async () => {
    writeFile(dir, 'people.csv', `email,name,Consent\nlong@example.com,${'x'.repeat(9 * 1024 * 1024)},yes\n`);
    const before = s.sandbox.requestCount();
    const r = await s.email(importArgs('people.csv'), { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/longer than/);
    expect(r.stderr).not.toMatch(/journal|--resume/);
    expect(s.sandbox.requestCount()).toBe(before);
    expect(readdirSync(dir)).toEqual(['people.csv']);
  });
});

describe('heap tuning (src/core/heap.ts) is the process entry\'s, never a test worker\'s', () => {
  // --expose-gc is the one V8 flag whose effect a test can see: a new context then has gc().
  const gcExposed = () => runInNewContext('typeof gc') !== 'undefined';

  it('an import run in-process without the heap hook leaves the V8 flags of the process alone', async () => {
    expect(gcExposed(), 'precondition: this worker runs without --expose-gc').toBe(false);
    writeFile(dir, 'people.csv', peopleCsv(1200));
    const { code, stderr } = await jsonImport('people.csv', '--batch-size', '500');
    expect(code, stderr).toBe(0);
    expect(gcExposed()).toBe(false);
  });

  it('applies the heap hook it is given: bounded once, then told the rows of every batch sent', async () => {
    writeFile(dir, 'people.csv', peopleCsv(1200));
    const bounded: unknown[] = [];
    const rows: number[] = [];
    let stdout = '';
    const code = await run([...importArgs('people.csv', '--batch-size', '500'), '--json'], {
      io: {
        stdout: { write: (t) => ((stdout += String(t)), true) },
        stderr: { write: () => true },
        stdin: new PassThrough(),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
      },
      env: { ...s.env, EMAIL_CONFIG_DIR: tempConfigDir() },
      cwd: dir,
      heap: async () => ({
        boundedHeap: (options) => {
          bounded.push(options);
          return (n) => void rows.push(n);
        },
      }),
    });
    expect(code).toBe(0);
    expectCountsAddUp(JSON.parse(stdout));
    expect(bounded).toHaveLength(1);
    expect(rows).toEqual([500, 500, 200]);
    expect(gcExposed()).toBe(false);
  });
});
