// The row source (src/import/source.ts): the delimiter, the text checks and
// the header, before any row is read.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { openInput } from '../../src/import/input.js';
import { checkText, parseDelimiterFlag, RowSource, sniffDelimiter } from '../../src/import/source.js';
import { tempDir, writeFile } from '../helpers/import-files.js';

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

describe('very wide records (issue 17.9)', () => {
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
});
