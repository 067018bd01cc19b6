// The structure check's count of the rows with an address and no name, made
// before the first request (CLI.md "Names"), against csv-parse's reading of
// the same text, whatever the chunk boundaries.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { scanStructure } from '../../src/import/structure-check.js';

/** Chunks in one reused buffer, as scanChunks gives them. */
async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  const chunk = Buffer.alloc(size);
  for (let i = 0; i < bytes.length; i += size) yield chunk.subarray(0, bytes.copy(chunk, 0, i, i + size));
}

function records(text: string): string[][] {
  return parse(text, { relax_quotes: true, relax_column_count: true, skip_empty_lines: false, record_delimiter: ['\r\n', '\n', '\r'] }) as string[][];
}

/** What the importer would find: rows after the header with an @ in the address, every name cell blank, and all the columns needed. */
function expected(text: string, emailColumn: number, nameColumns: number[]): number {
  const last = Math.max(emailColumn, ...nameColumns);
  return records(text).slice(1).filter((r) => r.length > last && r[emailColumn]!.includes('@') && r[emailColumn]!.trim() !== '' && nameColumns.every((c) => r[c]!.trim() === '')).length;
}

const files: [string, string, number, number[]][] = [
  ['plain', 'email,name,consent\na@x.com,Ann,yes\nb@x.com,,yes\nc@x.com,  ,yes\nd@x.com,"",yes\n', 0, [1]],
  ['quoted skip', 'name,email,notes\n,"a@x.com","a ""quoted""\nnote, with comma"\nBob,b@x.com,x\n ,c@x.com,"q"\n', 1, [0]],
  ['crlf and no last break', 'first,email,last\r\n,a@x.com,\r\nB,b@x.com,\r\n,c@x.com,C\r\n,d@x.com,', 1, [0, 2]],
  ['short rows and no @', 'email,name\na@x.com\nnot-an-address,\n,\n"b@x.com",""\n', 0, [1]],
  ['no name column', 'email,consent\na@x.com,yes\nb@x.com,yes\n\n', 0, []],
  ['quoted line breaks in the name', 'email,name,z\na@x.com,"\n",1\nb@x.com,"B\nB",2\n', 0, [1]],
  ['names that are a quote or an @', 'name,email\n"""",a@x.com\n@,b@x.com\n" ",c@x.com\n', 1, [0]],
  ['a quoted header', '"E-mail, ""first""","Näme\nfull",\na@x.com,,\n', 0, [1]],
];

const COMMA = 44;
const scanEmptyNames = async (chunks: AsyncIterable<Buffer>, o: { emailColumn: number; nameColumns: number[] }) => {
  const report = await scanStructure(chunks, COMMA, true, () => o);
  if ('kind' in report) throw new Error(report.kind);
  return report.emptyNames!;
};

describe('scanStructure: rows with an empty name', () => {
  for (const [what, text, email, names] of files) {
    it(`${what}: counts as the parser reads it, at every chunk size`, async () => {
      const want = expected(text, email, names);
      expect(want, 'the file has such rows').toBeGreaterThan(0);
      for (let size = 1; size <= Buffer.byteLength(text); size++) {
        const found = await scanEmptyNames(chunked(text, size), { emailColumn: email, nameColumns: names });
        expect(found.rows, `chunks of ${size}`).toBe(want);
        expect(found.header, `the header, in chunks of ${size}`).toEqual(records(text)[0]);
      }
    });
  }

  it('gives the offset of the first such row', async () => {
    const text = 'email,name\na@x.com,A\nb@x.com,\n';
    const found = await scanEmptyNames(chunked(text, 7), { emailColumn: 0, nameColumns: [1] });
    expect(found).toEqual({ rows: 1, firstOffset: text.indexOf('b@x.com'), header: ['email', 'name'] });
  });
});
