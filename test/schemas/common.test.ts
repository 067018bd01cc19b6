// The building blocks of the response schemas (src/schemas/common.ts): CLI.md
// "lenient reading" — more shapes accepted, values never rewritten — and the
// words a user reads when a value does not fit, as the client prints them
// (core/response-issues.ts turns the blocks' own messages into
// `Results[0].Date: expected a date-time, got 17`).
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeIssue } from '../../src/core/response-issues.js';
import { dateTime, field, id, lenientInt, toInt } from '../../src/schemas/common.js';

/** What the client would say about `data` read with `schema`, or 'fits'. */
function verdict(schema: z.ZodMiniType, data: unknown): string {
  const parsed = schema.safeParse(data);
  return parsed.success ? 'fits' : describeIssue(parsed.error.issues[0], data);
}

const page = (record: z.ZodMiniType) => z.looseObject({ Results: z.array(record) });

describe('lenientInt', () => {
  it('takes an integer sent as a number or as a numeric string, and keeps the string as it came', () => {
    expect(lenientInt.parse('12')).toBe('12');
    expect(lenientInt.parse('-3')).toBe('-3');
    expect(lenientInt.parse(12)).toBe(12);
  });

  it.each([
    ['12a', 'Count: expected an integer, got "12a"'],
    [1.5, 'Count: expected an integer, got 1.5'],
    ['1.5', 'Count: expected an integer, got "1.5"'],
    [true, 'Count: expected an integer, got true'],
    [null, 'Count: expected an integer, got null'],
  ])('refuses %j in words naming the field, the expectation and the value', (value, words) => {
    expect(verdict(z.object({ Count: lenientInt }), { Count: value })).toBe(words);
  });

  it('says a missing required integer is missing', () => {
    expect(verdict(z.object({ Count: lenientInt }), {})).toBe('Count: expected an integer, got nothing (the field is missing)');
  });
});

describe('dateTime', () => {
  it.each(['2010-10-11 08:29:00', '2024-06-01T08:29:00+02:00', '2024-06-01T08:29:00Z', '2024-06-01T08:29:00.123+0200', '2024-06-01'])(
    'takes the service date form %s unchanged',
    (value) => {
      expect(dateTime.parse(value)).toBe(value);
    },
  );

  it.each([
    [17, 'Results[0].Date: expected a date-time, got 17'],
    ['11/10/2010', 'Results[0].Date: expected a date-time, got "11/10/2010"'],
    ['', 'Results[0].Date: expected a date-time, got an empty string'],
    [{}, 'Results[0].Date: expected a date-time, got an empty object'],
  ])('refuses %j at its path in a page of records', (value, words) => {
    expect(verdict(page(z.looseObject({ Date: dateTime })), { Results: [{ Date: value }] })).toBe(words);
  });
});

describe('id', () => {
  it('takes any non-empty string: an id is not refused over its shape', () => {
    expect(id.parse('3f1c')).toBe('3f1c');
    expect(id.parse('c0000000-0000-4000-8000-000000000001')).toBe('c0000000-0000-4000-8000-000000000001');
  });

  it('refuses an empty id or a number, naming the record', () => {
    const record = z.looseObject({ CampaignID: id });
    expect(verdict(page(record), { Results: [{ CampaignID: 'a' }, { CampaignID: '' }] })).toBe('Results[1].CampaignID: expected an id, got an empty string');
    expect(verdict(page(record), { Results: [{ CampaignID: 7 }] })).toBe('Results[0].CampaignID: expected an id, got 7');
  });
});

describe('field', () => {
  it('passes whatever a declared but unchecked field holds, and its absence', () => {
    const record = z.looseObject({ TotalOpened: field });
    for (const value of [1, '1', null, { a: 1 }, [2]]) expect(record.parse({ TotalOpened: value })).toEqual({ TotalOpened: value });
    expect(record.parse({})).toEqual({});
  });
});

describe('toInt', () => {
  it('reads a lenient integer as a number, and a missing one as 0', () => {
    expect(toInt('12')).toBe(12);
    expect(toInt(7)).toBe(7);
    expect(toInt(null)).toBe(0);
    expect(toInt(undefined)).toBe(0);
  });
});
