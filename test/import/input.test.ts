// Reading the input: delimiter sniffing, the whole-file structure check
// (unclosed quotes, binary data, text that is not UTF-8, each named by line),
// encodings, and the header mapping.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { checkText, parseDelimiterFlag, RowSource, sniffDelimiter } from '../../src/import/source.js';
import { openInput, scanChunks, utf8Source } from '../../src/import/input.js';
import { planMapping } from '../../src/import/mapping.js';
import { lineAt, scanStructure } from '../../src/import/structure-check.js';
import { tempDir, writeFile } from '../helpers/import-files.js';

const COMMA = 44;
const stream = (...chunks: (string | Buffer)[]) => Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));

describe('delimiter sniffing', () => {
  it('finds comma, semicolon and tab', () => {
    expect(sniffDelimiter('email,name\na@x.io,A\n')).toBe(',');
    expect(sniffDelimiter('email;name;Company\na@x.io;A;B\nb@x.io;B;C\n')).toBe(';');
    expect(sniffDelimiter('email\tname\na@x.io\tA\n')).toBe('\t');
  });
  it('is not fooled by commas inside quoted values of a semicolon file', () => {
    expect(sniffDelimiter('email;name\na@x.io;"Lovelace, Ada"\nb@x.io;"Hopper, Grace"\n')).toBe(';');
  });
  it('prefers the delimiter that is consistent over one that varies from line to line', () => {
    expect(sniffDelimiter('email;note\na@x.io;one, two\nb@x.io;three\nc@x.io;x, y, z\n')).toBe(';');
  });
  it('falls back to a comma for a one-column file', () => {
    expect(sniffDelimiter('email\na@x.io\n')).toBe(',');
  });
  it('--delimiter takes one character or "tab"', () => {
    expect(parseDelimiterFlag('tab')).toBe('\t');
    expect(parseDelimiterFlag('\\t')).toBe('\t');
    expect(parseDelimiterFlag('|')).toBe('|');
    expect(() => parseDelimiterFlag(';;')).toThrow(UsageError);
  });
});

describe('structure check', () => {
  it('finds an unclosed quote and the line it opened on', async () => {
    const text = 'email,name\na@x.io,"Ada\nb@x.io,Bob\nc@x.io,"Cy"\n"d@x.io,Dee\n';
    const report = await scanStructure(stream(text), COMMA, true);
    expect(report).toEqual({ kind: 'unclosed-quote', offset: text.indexOf('"d@') });
    expect(await lineAt(stream(text), text.indexOf('"d@'))).toBe(5);
  });
  it('accepts quoted line breaks, escaped quotes and quotes inside unquoted values, and reports the line breaks', async () => {
    const text = 'email,note\na@x.io,"two\r\nlines"\nb@x.io,"say ""hi"""\nc@x.io,O"Brien\n';
    expect(await scanStructure(stream(text), COMMA, true)).toEqual({ quotedLineBreaks: true, carriageReturns: true, bytes: Buffer.byteLength(text), records: 4 });
    expect(await scanStructure(stream('email\na@x.io\n'), COMMA, true)).toMatchObject({ quotedLineBreaks: false, carriageReturns: false });
    expect(await scanStructure(stream('email\na@x.io\n', 'b@x.io\r'), COMMA, true)).toMatchObject({ carriageReturns: true });
  });
  it('counts the records (line breaks outside quotes, and a last line without one), for the progress of the import (issue 13.6)', async () => {
    expect(await scanStructure(stream('email\na@x.io\nb@x.io\n'), COMMA, true)).toMatchObject({ records: 3 });
    expect(await scanStructure(stream('email\na@x.io\nb@x.io'), COMMA, true)).toMatchObject({ records: 3 });
    expect(await scanStructure(stream('email,n\r\na@x.io,"x\r\ny"\r\n', 'b@x.io,z\r\n'), COMMA, true)).toMatchObject({ records: 3 });
    expect(await scanStructure(stream('email\ra@x.io\rb@x.io\r'), COMMA, true)).toMatchObject({ records: 3 });
    expect(await scanStructure(stream(''), COMMA, true)).toMatchObject({ records: 0 });
  });

  it('follows quotes across chunk boundaries, including a "" split in two', async () => {
    expect(await scanStructure(stream('email,n\na@x.io,"x"', '"y"\n'), COMMA, true)).toMatchObject({ quotedLineBreaks: false });
    expect(await scanStructure(stream('email,n\na@x.io,"x"', '\n'), COMMA, true)).toMatchObject({ quotedLineBreaks: false });
    expect(await scanStructure(stream('email,n\na@x.io,"x', '\n"'), COMMA, true)).toMatchObject({ quotedLineBreaks: true });
  });
  it('gives the same report whatever the chunk boundaries: quoted fields before and after line breaks of every kind', async () => {
    const text = 'email,name,note\na@x.io,"Lovelace, Ada",x\r\nb@x.io,"Bob",y\n"c@x.io","two\nlines","three\r\nmore\rlines"\rd@x.io,Dee,"q""uote"\r\ne@x.io,Eve,z';
    const whole = await scanStructure(stream(text), COMMA, true);
    expect(whole).toEqual({ quotedLineBreaks: true, carriageReturns: true, bytes: text.length, records: 5 });
    for (const size of [1, 2, 3, 5, 7, 11, 16]) {
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
      expect(await scanStructure(stream(...pieces), COMMA, true), `chunks of ${size}`).toEqual(whole);
    }
    // Line breaks only outside quotes; quoted fields in every record (a spreadsheet's export).
    const quotedNames = `email,name\n${Array.from({ length: 50 }, (_, i) => `p${i}@x.io,"Person, ${i}"`).join('\n')}\n`;
    expect(await scanStructure(stream(quotedNames), COMMA, true)).toEqual({ quotedLineBreaks: false, carriageReturns: false, bytes: quotedNames.length, records: 51 });
  });
  it('finds a NUL byte (binary data) anywhere in the file', async () => {
    expect(await scanStructure(stream('email\na@x.io\n', Buffer.from([0x62, 0x00, 0x01])), COMMA, true)).toEqual({ kind: 'binary', offset: 14 });
  });
  it('finds text that is not UTF-8, also when a character is cut by a chunk boundary', async () => {
    const latin1 = Buffer.from('email,name\na@x.io,Caf\xe9\n', 'latin1');
    expect(await scanStructure(stream(latin1), COMMA, true)).toMatchObject({ kind: 'not-utf8' });
    const e = Buffer.from('é');
    expect(await scanStructure(stream(Buffer.from('email,name\na@x.io,Caf'), e.subarray(0, 1), Buffer.concat([e.subarray(1), Buffer.from('\n')])), COMMA, true)).toMatchObject({ quotedLineBreaks: false });
  });
  it('reads a file through one reused buffer: characters and quotes cut by every chunk boundary, the line of a late problem', async () => {
    const dir = tempDir();
    // 16-byte chunks: "é", "€" and "😀" and a quoted line break land across boundaries somewhere.
    const rows = Array.from({ length: 40 }, (_, i) => `p${i}@x.io,Zoë €${i} 😀,"two\nlines"`);
    const text = `email,name,note\n${rows.join('\n')}\n`;
    writeFile(dir, 'ok.csv', text);
    const ok = await openInput('ok.csv', dir, Readable.from([]), undefined);
    expect(await scanStructure(scanChunks(ok, 16), COMMA, true)).toEqual({ quotedLineBreaks: true, carriageReturns: false, bytes: Buffer.byteLength(text), records: 41 });
    writeFile(dir, 'bad.csv', `${text}late@x.io,"unclosed\n`);
    const bad = await openInput('bad.csv', dir, Readable.from([]), undefined);
    const report = await scanStructure(scanChunks(bad, 16), COMMA, true);
    expect(report).toEqual({ kind: 'unclosed-quote', offset: Buffer.byteLength(text) + 'late@x.io,'.length });
    expect(await lineAt(scanChunks(bad, 16), (report as { offset: number }).offset)).toBe(2 + 40 * 2);
  });
});

describe('opening the input', () => {
  it('names a missing file and a directory', async () => {
    const dir = tempDir();
    await expect(openInput('nope.csv', dir, Readable.from([]), undefined)).rejects.toThrow('nope.csv: no such file');
    await expect(openInput('.', dir, Readable.from([]), undefined)).rejects.toThrow('is a directory');
  });
  it('refuses an Excel workbook and binary data before reading further', async () => {
    const dir = tempDir();
    writeFile(dir, 'book.xlsx', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(100, 7)]));
    await expect(openInput('book.xlsx', dir, Readable.from([]), undefined)).rejects.toThrow(/ZIP archive/);
    writeFile(dir, 'garbage.csv', Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256)));
    await expect(openInput('garbage.csv', dir, Readable.from([]), undefined)).rejects.toThrow(/does not look like CSV text/);
  });
  it('strips a UTF-8 BOM and decodes UTF-16 with a BOM to UTF-8', async () => {
    const dir = tempDir();
    writeFile(dir, 'bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('email\na@x.io\n')]));
    const bom = await openInput('bom.csv', dir, Readable.from([]), undefined);
    expect(bom).toMatchObject({ encoding: 'utf8', bomBytes: 3, head: 'email\na@x.io\n' });
    writeFile(dir, 'utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\tname\r\né@x.io\tÉlodie\r\n', 'utf16le')]));
    const utf16 = await openInput('utf16.csv', dir, Readable.from([]), undefined);
    expect(utf16).toMatchObject({ encoding: 'utf16le', bomBytes: 2 });
    let text = '';
    for await (const chunk of utf8Source(utf16).stream) text += chunk;
    expect(text).toBe('email\tname\r\né@x.io\tÉlodie\r\n');
  });
  it('copies stdin to a temporary file identified by the SHA-256 of all of it, removed by cleanup()', async () => {
    const input = await openInput('-', '/', Readable.from([Buffer.from('email\n'), Buffer.from('a@x.io\n')]), undefined);
    expect(input).toMatchObject({ name: 'stdin', fromStdin: true, size: 13, identity: { size: 13, hashed: 'all' } });
    expect(input.identity.sha256).toMatch(/^[0-9a-f]{64}$/);
    await input.cleanup();
    const { existsSync } = await import('node:fs');
    expect(existsSync(input.path)).toBe(false);
  });
});

describe('inputs that cannot seek: a FIFO, a process substitution, a device (issue 17.8)', () => {
  const writers: ChildProcess[] = [];
  const savedTmp = process.env.TMPDIR;
  afterEach(() => {
    for (const w of writers.splice(0)) w.kill('SIGKILL');
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  });
  /** A FIFO in a fresh directory, and a private TMPDIR where the copy must be made and removed. */
  function fifo(): { dir: string; path: string; tmp: string } {
    const dir = tempDir();
    const path = join(dir, 'list.fifo');
    execFileSync('mkfifo', [path]);
    const tmp = join(dir, 'tmp');
    execFileSync('mkdir', ['-m', '700', tmp]);
    process.env.TMPDIR = tmp;
    return { dir, path, tmp };
  }
  /** A shell writing into the FIFO (the script gets the FIFO as $1). */
  function writer(script: string, path: string): ChildProcess {
    const child = spawn('sh', ['-c', script, 'sh', path], { stdio: 'ignore' });
    writers.push(child);
    return child;
  }

  it('copies a FIFO to a private temporary file (0600 in a 0700 directory), named as given, identified by the SHA-256 of all of it', async () => {
    const { dir, tmp } = fifo();
    writeFile(dir, 'list.csv', 'email,name\na@x.io,Ada\nb@x.io,Bob\n');
    writer('cat "$(dirname "$1")/list.csv" > "$1"', join(dir, 'list.fifo'));
    const input = await openInput('list.fifo', dir, Readable.from([]), undefined);
    try {
      expect(input).toMatchObject({ name: 'list.fifo', spooled: true, fromStdin: false, size: 33, identity: { size: 33, hashed: 'all' }, head: 'email,name\na@x.io,Ada\nb@x.io,Bob\n' });
      expect(input.path.startsWith(tmp)).toBe(true);
      expect(statSync(input.path).mode & 0o777).toBe(0o600);
      expect(statSync(join(input.path, '..')).mode & 0o777).toBe(0o700);
      // Every later pass reads the copy: the structure check, then the parser.
      const shape = await checkText(input, undefined);
      const { rows, header } = await RowSource.open(input, shape);
      rows.close();
      expect(header).toEqual(['email', 'name']);
    } finally {
      await input.cleanup();
    }
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses binary data from a pipe once its head has arrived, without copying the rest (cat /dev/zero > fifo), and removes the copy', async () => {
    const { dir, path, tmp } = fifo();
    writer('exec cat /dev/zero > "$1"', path);
    await expect(openInput('list.fifo', dir, Readable.from([]), undefined)).rejects.toThrow(/list\.fifo does not look like CSV text/);
    expect(readdirSync(tmp)).toEqual([]);
    await expect(openInput('/dev/zero', dir, Readable.from([]), undefined)).rejects.toThrow(/\/dev\/zero does not look like CSV text/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses binary data on stdin after its head, without waiting for the end', async () => {
    const endless = new Readable({ read() { this.push(Buffer.alloc(16 * 1024)); } });
    await expect(openInput('-', '/', endless, undefined)).rejects.toThrow(/stdin does not look like CSV text/);
  });

  it('an abort while a FIFO has no writer, or a writer that never closes it, ends the copy at once and removes it (CLI.md "signals")', async () => {
    const { dir, path, tmp } = fifo();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    await expect(openInput('list.fifo', dir, Readable.from([]), undefined, stop.signal)).rejects.toThrow(/interrupted/);
    expect(readdirSync(tmp)).toEqual([]);

    writer('exec 3>"$1"; printf "email\\na@x.io\\n" >&3; exec sleep 60', path);
    const later = new AbortController();
    setTimeout(() => later.abort(), 300);
    await expect(openInput('list.fifo', dir, Readable.from([]), undefined, later.signal)).rejects.toThrow(/interrupted/);
    expect(readdirSync(tmp)).toEqual([]);

    const never = new Readable({ read() {} });
    const third = new AbortController();
    setTimeout(() => third.abort(), 100);
    await expect(openInput('-', dir, never, undefined, third.signal)).rejects.toThrow(/interrupted/);
    expect(readdirSync(tmp)).toEqual([]);
  }, 10_000);
});

describe('very wide or long records (issue 17.9)', () => {
  it('refuses a header of more than 1,000 columns, naming the count', async () => {
    const dir = tempDir();
    const header = ['email', ...Array.from({ length: 99_999 }, (_, i) => `c${i}`)].join(',');
    writeFile(dir, 'wide.csv', `${header}\n`);
    const input = await openInput('wide.csv', dir, Readable.from([]), undefined);
    const shape = await checkText(input, undefined);
    await expect(RowSource.open(input, shape)).rejects.toThrow('wide.csv: the header has 100,000 columns; at most 1,000 are accepted');
    writeFile(dir, 'ok.csv', `${['email', ...Array.from({ length: 999 }, (_, i) => `c${i}`)].join(',')}\n`);
    const ok = await openInput('ok.csv', dir, Readable.from([]), undefined);
    const opened = await RowSource.open(ok, await checkText(ok, undefined));
    opened.rows.close();
    expect(opened.header).toHaveLength(1000);
  });
  it('the structure check refuses a record longer than 1 MiB before anything is read as rows, naming its line', async () => {
    const long = 'x'.repeat(1024 * 1024);
    const text = `email,name\na@x.io,Ada\nb@x.io,"${long}\n${long}"\nc@x.io,Cy\n`;
    const report = await scanStructure(stream(text), COMMA, true);
    expect(report).toEqual({ kind: 'long-record', offset: text.indexOf('b@x.io') });
    expect(await lineAt(stream(text), (report as { offset: number }).offset)).toBe(3);
    // A record just under the bound, in lines ending in \r\n, \r alone or \n, and a last line without a break.
    const under = 'y'.repeat(1024 * 1024 - 20);
    for (const eol of ['\n', '\r\n', '\r']) {
      expect(await scanStructure(stream(`email,name${eol}a@x.io,${under}${eol}b@x.io,${under}`), COMMA, true)).toMatchObject({ records: 3 });
    }
    expect(await scanStructure(stream(`email,name\r\na@x.io,${long}`), COMMA, true)).toMatchObject({ kind: 'long-record' });
  });
});

describe('header mapping', () => {
  it('recognises the common spellings, joins First Name + Last Name, and keeps the rest as custom fields', () => {
    const plan = planMapping(['Email Address', 'First Name', 'Last Name', 'Company', 'CONSENT'], [], 'x.csv');
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [1, 2], consentColumn: 4, fieldColumns: [{ index: 3, key: 'Company' }] });
  });
  it('a Name column wins over First/Last, which then become custom fields', () => {
    const plan = planMapping(['e-mail', 'Name', 'first_name'], [], 'x.csv');
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [1], fieldColumns: [{ index: 2, key: 'first_name' }] });
  });
  it('--map decides for the columns it names (case-insensitively), - ignores one, the rest is matched as usual', () => {
    const plan = planMapping(['Work Mail', 'Notes', 'Full Name', 'Tier'], ['work mail=EmailAddress', 'Notes=-', 'Tier=[Plan]'], 'x.csv');
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [2], fieldColumns: [{ index: 3, key: '[Plan]' }] });
    expect(plan.columns[1]).toMatchObject({ target: 'ignore', source: 'map' });
  });
  it('--only-mapped ignores the columns that neither --map nor the header matching maps (issue 13.15)', () => {
    const header = ['Email Address', 'First Name', 'Last Name', 'LEID', 'EUID', 'OPTIN_IP', 'Plan'];
    const plan = planMapping(header, ['Plan=[Plan]'], 'mailchimp.csv', { onlyMapped: true });
    expect(plan).toMatchObject({ emailColumn: 0, nameColumns: [1, 2], fieldColumns: [{ index: 6, key: '[Plan]' }] });
    expect(plan.columns.filter((c) => c.target === 'ignore').map((c) => [c.header, c.source])).toEqual([
      ['LEID', 'only-mapped'],
      ['EUID', 'only-mapped'],
      ['OPTIN_IP', 'only-mapped'],
    ]);
  });

  it('ignores the four columns a failures file adds, so a fixed failures file imports as it is', () => {
    const plan = planMapping(['email', 'Company', 'Line', 'Outcome', 'Code', 'Message'], [], 'failed.csv');
    expect(plan.fieldColumns).toEqual([{ index: 1, key: 'Company' }]);
  });
  it('refuses a file without an email column, listing its columns (exit 2)', () => {
    expect(() => planMapping(['name', 'company'], [], 'people.csv')).toThrow('people.csv: no email column; the columns are "name", "company"');
  });
  it('refuses two columns that could both be the address, and a --map naming no column', () => {
    expect(() => planMapping(['email', 'Email Address'], [], 'x.csv')).toThrow(/several columns could be the email address/);
    expect(() => planMapping(['email'], ['Mail=EmailAddress'], 'x.csv')).toThrow(/has no column "Mail"/);
    expect(() => planMapping(['email'], ['email'], 'x.csv')).toThrow(/--map must be Column=Target/);
  });
});
