// The structure check (src/import/structure-check.ts): one pass over the
// bytes before any row is read, for quotes, binary data, UTF-8, record
// length and the record count the progress uses.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openInput } from '../../src/import/input.js';
import { scanChunks } from '../../src/import/text.js';
import { lineAt, scanStructure } from '../../src/import/structure-check.js';
import { tempDir, writeFile } from '../helpers/import-files.js';

const COMMA = 44;
const stream = (...chunks: (string | Buffer)[]) => Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));

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

describe('very long records (issue 17.9)', () => {
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

  it('stops reading as soon as a record passes the bound, without waiting for its end (a gzip bomb of one character, a stream without end)', async () => {
    let pulled = 0;
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from('email,name\na@x.io,');
      for (;;) {
        pulled++;
        yield chunk;
      }
    }
    expect(await scanStructure(endless(), COMMA, true)).toEqual({ kind: 'long-record', offset: 'email,name\n'.length });
    expect(pulled).toBeLessThanOrEqual(5);
    // Inside an open quote too.
    pulled = 0;
    async function* quoted(): AsyncGenerator<Buffer> {
      yield Buffer.from('email,name\na@x.io,"');
      for (;;) {
        pulled++;
        yield chunk;
      }
    }
    expect(await scanStructure(quoted(), COMMA, true)).toMatchObject({ kind: 'long-record' });
    expect(pulled).toBeLessThanOrEqual(5);
  });
});
