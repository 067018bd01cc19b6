// One CSV record → one import entry (src/import/rows.ts), or the reason it
// cannot be sent (service-spec.md "Import request", codes 1, 214, 215).
import { describe, expect, it } from 'vitest';
import { planMapping } from '../../src/import/mapping.js';
import { BLANK, LISTED_DUPLICATE, RowBuilder } from '../../src/import/rows.js';

const HEADER = ['email', 'name', 'consent', 'Interests', 'Company'];
const builder = (options: ConstructorParameters<typeof RowBuilder>[1] = {}, header = HEADER) => new RowBuilder(planMapping(header, [], 'p.csv'), options);

function refusal(b: RowBuilder, record: string[]) {
  expect(b.build(record)).toBeUndefined();
  return { code: b.problemCode, message: b.problemMessage, email: b.email };
}

describe('RowBuilder', () => {
  it('builds an entry: address and name trimmed, empty custom fields left out, fields of one shape', () => {
    const b = builder();
    const entry = b.build([' ada@example.com ', ' Ada ', 'yes', '', 'Analytical Engines']);
    expect(entry).toEqual({ EmailAddress: 'ada@example.com', Name: 'Ada', CustomFields: [{ Key: 'Company', Value: 'Analytical Engines' }], ConsentToTrack: 'Yes' });
    expect(Object.keys(entry!)).toEqual(['EmailAddress', 'Name', 'CustomFields', 'ConsentToTrack']);
    expect(b.email).toBe('ada@example.com');
  });

  it('skips a row whose cells are all empty, like a blank line', () => {
    expect(builder().build(['', ' ', '', '', ''])).toBe(BLANK);
  });

  it('takes --consent for an empty consent cell, the cell where it says Yes, No or Unchanged', () => {
    expect(builder({ consent: 'No' }).build(['a@example.com', 'A', '', '', ''])?.ConsentToTrack).toBe('No');
    expect(builder({ consent: 'No' }).build(['a@example.com', 'A', 'unchanged', '', ''])?.ConsentToTrack).toBe('Unchanged');
  });

  it('splits a cell at --multi-separator into several values of the key', () => {
    const entry = builder({ multiSeparator: '|' }).build(['a@example.com', 'A', 'yes', 'News| Events |', '']);
    expect(entry?.CustomFields).toEqual([
      { Key: 'Interests', Value: 'News' },
      { Key: 'Interests', Value: 'Events' },
    ]);
  });

  it.each([
    ['no address', ['', 'A', 'yes', '', ''], '1', 'no email address', ''],
    ['a bad address', ['ada@', 'A', 'yes', '', ''], '1', 'invalid email address "ada@"', ''],
    ['a consent that is no consent', ['a@example.com', 'A', 'maybe', '', ''], '215', 'ConsentToTrack "maybe" is not Yes, No or Unchanged', 'a@example.com'],
    ['no consent at all', ['a@example.com', 'A', '', '', ''], '214', 'ConsentToTrack missing: fill the cell, or give --consent yes|no|unchanged', 'a@example.com'],
    ['cells beyond the header', ['a@example.com', 'A', 'yes', '', '', 'x'], 'extra-fields', 'the row has 6 fields and the header 5; an unquoted delimiter inside a value?', ''],
    ['fewer cells than the header', ['a@example.com', 'A', 'yes', ''], 'missing-fields', 'the row has 4 fields and the header 5; a missing delimiter, or a line break inside an unquoted value?', ''],
    ['fewer cells than the header, the address cell among those missing', ['Ann'], 'missing-fields', 'the row has 1 field and the header 5; a missing delimiter, or a line break inside an unquoted value?', ''],
  ])('refuses %s, keeping the valid address for duplicate detection', (_why, record, code, message, email) => {
    expect(refusal(builder(), record as string[])).toEqual({ code, message, email });
  });

  it('leaves out a custom field value that cannot be sent and keeps the row, saying which column and why; --strict refuses the row', () => {
    const b = builder({ multiSeparator: '|' });
    const entry = b.build(['a@example.com', 'A', 'yes', 'News|2023-02-29', 'x'.repeat(251)]);
    expect(entry).toMatchObject({ EmailAddress: 'a@example.com', CustomFields: [{ Key: 'Interests', Value: 'News' }] });
    expect(b.leftOut).toEqual([
      { column: 3, code: 'invalid-date', message: 'Interests "2023-02-29" is not a date (year/month/day)' },
      { column: 4, code: 'too-long', message: "Company is 251 characters long; the service's limit is 250" },
    ]);
    expect(b.build(['b@example.com', 'B', 'yes', '', ''])).toBeDefined();
    expect(b.leftOut, 'forgotten at the next row').toBeUndefined();
    expect(refusal(builder({ strict: true }), ['a@example.com', 'A', 'yes', '', 'x'.repeat(251)])).toEqual({
      code: 'too-long',
      message: "Company is 251 characters long; the service's limit is 250",
      email: 'a@example.com',
    });
  });

  it('ignores empty cells beyond the header (a trailing delimiter)', () => {
    expect(builder().build(['a@example.com', 'A', 'yes', '', '', ' '])).toBeDefined();
  });

  it('takes a row that lacks only the cells of columns without a header (a header with a trailing delimiter), as extra empty cells are', () => {
    const b = builder({}, [...HEADER, '', ' ']);
    expect(b.build(['a@example.com', 'A', 'yes', '', 'Acme'])).toMatchObject({ EmailAddress: 'a@example.com' });
    expect(refusal(b, ['a@example.com', 'A', 'yes', '']).code).toBe('missing-fields');
  });

  it('refuses a row a failures file lists as a duplicate, however the Outcome cell was re-cased', () => {
    const failuresHeader = ['email', 'name', 'consent', 'Line', 'Outcome', 'Code', 'Message'];
    const b = new RowBuilder(planMapping(failuresHeader, [], 'failed.csv'), {});
    expect(refusal(b, ['a@example.com', 'A', 'yes', '3', ' Duplicate ', '', '']).code).toBe(LISTED_DUPLICATE);
    expect(b.build(['a@example.com', 'A', 'yes', '4', 'failed', '1', 'x'])).toMatchObject({ EmailAddress: 'a@example.com' });
  });
});
