// The --failures file (src/import/failures.ts): every row not imported, its
// cells kept, then Line, Outcome, Code and Message; spreadsheet-safe, 0600,
// put in place whole; never the input or the journal.
import { lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { FailuresFile, refuseFailuresClash } from '../../src/import/failures.js';
import { openInput } from '../../src/import/input.js';
import { checkText, RowSource } from '../../src/import/source.js';
import { tempDir, writeFile } from '../helpers/import-files.js';

describe('FailuresFile', () => {
  it('writes the header and the rows with the four columns, cells formula-safe and quoted, and appears only when closed, 0600', async () => {
    const dir = tempDir();
    const path = join(dir, 'failed.csv');
    const file = await FailuresFile.open(path, ['email', 'name'], ',');
    file.write(['=cmd()@example.com', 'Ada, Countess'], 2, 'rejected', '1', 'invalid email address');
    file.write(['a@example.com', 'A'], 3, 'duplicate', '', 'a repeated address');
    expect(readdirSync(dir).includes('failed.csv')).toBe(false);
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe(
      '\uFEFFemail,name,Line,Outcome,Code,Message\r\n' + `'=cmd()@example.com,"Ada, Countess",2,rejected,1,invalid email address\r\n` + 'a@example.com,A,3,duplicate,,a repeated address\r\n',
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("uses the input's delimiter, is UTF-8 with a BOM whatever the input's encoding, and keeps cells beyond the header in the message", async () => {
    const path = join(tempDir(), 'failed.csv');
    const file = await FailuresFile.open(path, ['email', 'note'], ';');
    file.write(['a@example.com', 'x;y', 'extra'], 5, 'rejected', 'extra-fields', 'too many fields');
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe('\uFEFFemail;note;Line;Outcome;Code;Message\r\na@example.com;"x;y";5;rejected;extra-fields;"too many fields [extra cells: ""extra""]"\r\n');
  });

  it("writes the rows the service refused at the end, in line order, their cells read again from the input", async () => {
    const dir = tempDir();
    writeFile(dir, 'in.csv', 'email,name\na@example.com,A\nb@example.com,B\nc@example.com,C\nd@example.com,D\n');
    const input = await openInput('in.csv', dir, Readable.from([]), undefined);
    const shape = await checkText(input, undefined);
    const path = join(dir, 'failed.csv');
    const file = await FailuresFile.open(path, ['email', 'name'], ',');
    file.later(5, '204', 'suppressed');
    file.later(3, '1', 'invalid');
    await file.writeLater(async () => (await RowSource.open(input, shape)).rows);
    await file.close();
    expect(readFileSync(path, 'utf8').split('\r\n')).toEqual(['\uFEFFemail,name,Line,Outcome,Code,Message', 'b@example.com,B,3,failed,1,invalid', 'd@example.com,D,5,failed,204,suppressed', '']);
  });

  it("names a failures file's rows by their Line column, the line in the first file; a row without one by its line in the file read", async () => {
    const path = join(tempDir(), 'failed-2.csv');
    const header = ['email', 'name', 'Line', 'Outcome', 'Code', 'Message', 'Line', 'Outcome', 'Code', 'Message'];
    const file = await FailuresFile.open(path, header, ',', 2);
    file.write(['a@', 'A', '17', 'rejected', '1', 'invalid', '3', 'rejected', '1', 'invalid'], 2, 'rejected', '1', 'invalid');
    file.write(['b@', 'B', '', '', '', ''], 3, 'rejected', '1', 'invalid');
    file.write(['c@', 'C', 'seven', 'rejected', '1', 'invalid'], 4, 'rejected', '1', 'invalid');
    await file.close();
    expect(readFileSync(path, 'utf8').split('\r\n').slice(1, -1)).toEqual(['a@,A,17,rejected,1,invalid', 'b@,B,3,rejected,1,invalid', 'c@,C,4,rejected,1,invalid']);
  });

  it('refuses a directory and a symbolic link at the path, and writes through neither', async () => {
    const dir = tempDir();
    await expect(FailuresFile.open(dir, ['email'], ',')).rejects.toThrow(`--failures ${dir} is a directory: `);
    const victim = join(tempDir(), 'victim');
    writeFileSync(victim, 'precious\n');
    const link = join(dir, 'failed.csv');
    symlinkSync(victim, link);
    await expect(FailuresFile.open(link, ['email'], ',')).rejects.toThrow(`--failures ${link} is a symbolic link, never followed or replaced: `);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});

describe('refuseFailuresClash', () => {
  it('refuses the input file by any name, and the journal, existing or not', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.csv');
    writeFileSync(input, 'email\n');
    symlinkSync(input, join(dir, 'alias.csv'));
    const given = { path: input, name: 'in.csv', fromStdin: false };
    await expect(refuseFailuresClash(join(dir, 'alias.csv'), given, undefined)).rejects.toThrow(UsageError);
    await expect(refuseFailuresClash(join(dir, 'alias.csv'), given, undefined)).rejects.toThrow(/is the input file in\.csv/);
    await expect(refuseFailuresClash(join(dir, 'j.journal'), given, join(dir, 'j.journal'))).rejects.toThrow(/is the journal of this import/);
    await expect(refuseFailuresClash(join(dir, 'failed.csv'), given, join(dir, 'j.journal'))).resolves.toBeUndefined();
    await expect(refuseFailuresClash(input, { ...given, fromStdin: true }, undefined)).resolves.toBeUndefined();
  });
});
