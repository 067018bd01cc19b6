// The value checks shared by subscribers add, update and import.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { isValidEmail } from '../../src/validation/email-address.js';
import {
  characterCount,
  checkFieldValue,
  clearFieldFlags,
  consentFlag,
  fieldFlags,
  isAcceptableAddress,
  parseConsent,
} from '../../src/validation/subscriber-fields.js';
import { normalizeDate as normalizeSandboxDate } from '../../src/sandbox/custom-field-values.js';

/** yyyy/mm/dd that names a day of the proleptic Gregorian calendar (checked with Date, apart from the code under test). */
function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The two day and month numbers and the year of a dd/mm/yyyy-shaped value (undefined parts for a year-first one). */
function readingsOf(value: string): [string?, string?, string?] {
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  return m ? [m[1]!.padStart(2, '0'), m[2]!.padStart(2, '0'), m[3]] : [];
}

describe('dates in custom field values', () => {
  it('normalises ISO yyyy-mm-dd to yyyy/mm/dd', () => {
    expect(checkFieldValue('Birthday', '1990-05-17')).toBe('1990/05/17');
  });
  it('keeps yyyy/mm/dd as it is and pads one-digit months and days', () => {
    expect(checkFieldValue('Birthday', '1990/05/17')).toBe('1990/05/17');
    expect(checkFieldValue('Birthday', '2024/1/5')).toBe('2024/01/05');
  });
  it('passes 0000-00-00, the value that clears a Date field', () => {
    expect(checkFieldValue('Birthday', '0000-00-00')).toBe('0000-00-00');
  });
  it('refuses dd/mm/yyyy and mm/dd/yyyy as ambiguous when both readings are dates and differ, and shows both readings', () => {
    const problem = checkFieldValue('Birthday', '05/06/2024');
    expect(problem).toEqual({ code: 'ambiguous-date', message: expect.stringContaining('2024/06/05 or 2024/05/06') });
    expect(checkFieldValue('Birthday', '03.04.1990')).toMatchObject({ code: 'ambiguous-date' });
    expect(checkFieldValue('Birthday', '1-2-1990')).toMatchObject({ code: 'ambiguous-date' });
  });
  it('reads a slashed, dotted or dashed date the one way it can be a date (issue 17.5: 15/03/1990 is 15 March)', () => {
    expect(checkFieldValue('Birthday', '15/03/1990')).toBe('1990/03/15');
    expect(checkFieldValue('Birthday', '03/15/1990')).toBe('1990/03/15');
    expect(checkFieldValue('Birthday', '25.12.2024')).toBe('2024/12/25');
    expect(checkFieldValue('Birthday', '12-25-2024')).toBe('2024/12/25');
    expect(checkFieldValue('Birthday', '29/2/2024')).toBe('2024/02/29');
    // 30 February is no date: 02/30 can only be read month first, and is no date either way.
    expect(checkFieldValue('Birthday', '13/1/2024')).toBe('2024/01/13');
  });
  it('reads a date whose two readings are the same day (03/03/1990) without calling it ambiguous', () => {
    expect(checkFieldValue('Birthday', '03/03/1990')).toBe('1990/03/03');
    expect(checkFieldValue('Birthday', '7.7.2000')).toBe('2000/07/07');
  });
  it('refuses a slashed value that is a date in neither reading as invalid, suggesting nothing that is no date', () => {
    for (const value of ['31/02/1990', '13/13/1990', '00/05/1990', '29/02/2023', '02/30/2024', '32/01/2024']) {
      const problem = checkFieldValue('Birthday', value);
      expect(problem, value).toMatchObject({ code: 'invalid-date' });
      expect((problem as { message: string }).message.replace(`"${value}"`, ''), value).not.toMatch(/\d{4}\/\d{2}\/\d{2}/);
    }
  });
  it('every value sent for a date-shaped cell, and every rewrite a message suggests, is a calendar date the service reads (property)', () => {
    const part = (max: number) => fc.integer({ min: 0, max }).chain((n) => fc.constantFrom(String(n), String(n).padStart(2, '0')));
    const slashed = fc
      .tuple(part(39), fc.constantFrom('/', '.', '-'), part(39), fc.integer({ min: 0, max: 9999 }))
      .map(([a, sep, b, year]) => `${a}${sep}${b}${sep}${String(year).padStart(4, '0')}`)
      .filter((v) => v.length >= 8 && v.length <= 10);
    const yearFirst = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.constantFrom('/', '-'), part(39), part(39))
      .map(([year, sep, m, d]) => `${String(year).padStart(4, '0')}${sep}${m}${sep}${d}`);
    fc.assert(
      fc.property(fc.oneof(slashed, yearFirst), (value) => {
        const checked = checkFieldValue('Birthday', value);
        const [a, b, year] = readingsOf(value);
        if (typeof checked === 'string') {
          if (checked === '0000-00-00') return;
          // What is sent is year-first, a calendar date, and one the sandbox (the service's twin) stores.
          expect(checked).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
          expect(isCalendarDate(checked), `${value} → ${checked}`).toBe(true);
          expect(normalizeSandboxDate(checked), `${value} → ${checked}`).toBeDefined();
          // A checked value checks as itself: sending it again changes nothing.
          expect(checkFieldValue('Birthday', checked)).toBe(checked);
          return;
        }
        // The rewrites the message suggests (the value itself, quoted, is not one).
        const suggestions = checked.message.replace(`"${value}"`, '').match(/\d{4}\/\d{2}\/\d{2}/g) ?? [];
        for (const s of suggestions) expect(isCalendarDate(s), `${value}: suggests ${s}`).toBe(true);
        if (checked.code === 'ambiguous-date') {
          // Ambiguous only when both readings are dates and differ.
          expect(year).toBeDefined();
          expect(isCalendarDate(`${year}/${a}/${b}`) && isCalendarDate(`${year}/${b}/${a}`) && a !== b, value).toBe(true);
          expect(suggestions).toHaveLength(2);
        } else {
          expect(checked.code, value).toBe('invalid-date');
        }
      }),
      { numRuns: 2000 },
    );
  });
  it('refuses a year-first value that is no date', () => {
    expect(checkFieldValue('Birthday', '2023-02-29')).toMatchObject({ code: 'invalid-date' });
    expect(checkFieldValue('Birthday', '2024-13-01')).toMatchObject({ code: 'invalid-date' });
    expect(checkFieldValue('Birthday', '2024-02-29')).toBe('2024/02/29');
  });
  it('leaves values that only look numeric alone', () => {
    for (const value of ['12345678', '0612345678', '2024-05-17T10:00:00Z', '1.2.3', 'v2024/01/01']) expect(checkFieldValue('X', value)).toBe(value);
  });
});

describe('the 250-character limit', () => {
  it('accepts 250 characters and refuses 251, naming the field', () => {
    expect(checkFieldValue('Notes', 'a'.repeat(250))).toBe('a'.repeat(250));
    expect(checkFieldValue('Notes', 'a'.repeat(251))).toEqual({ code: 'too-long', message: "Notes is 251 characters long; the service's limit is 250" });
  });
  it('counts characters, not UTF-16 units (an emoji is one character)', () => {
    const emoji = '😀'.repeat(250);
    expect(emoji.length).toBe(500);
    expect(characterCount(emoji)).toBe(250);
    expect(checkFieldValue('Notes', emoji)).toBe(emoji);
    expect(checkFieldValue('Notes', `${emoji}x`)).toMatchObject({ code: 'too-long' });
  });
});

describe('consent', () => {
  it('reads Yes, No and (imports only) Unchanged in any case', () => {
    expect(parseConsent('yes', true)).toBe('Yes');
    expect(parseConsent(' NO ', true)).toBe('No');
    expect(parseConsent('Unchanged', true)).toBe('Unchanged');
    expect(parseConsent('unchanged', false)).toBeNull();
    expect(parseConsent('', true)).toBeUndefined();
    expect(parseConsent('maybe', true)).toBeNull();
  });
  it('--consent is required on add and update with the service code 214, and must be yes or no (215)', () => {
    expect(() => consentFlag(undefined)).toThrow(expect.objectContaining({ code: 214 }));
    expect(() => consentFlag('unchanged')).toThrow(expect.objectContaining({ code: 215 }));
    expect(consentFlag('YES')).toBe('Yes');
  });
});

describe('--field and --clear-field', () => {
  it('keeps a repeated key as separate items (MultiSelectMany) in order, values as typed', () => {
    const said: string[] = [];
    expect(fieldFlags(['Interests=Jazz', 'Interests=Blues', 'Birthday=1990-05-17'], (l) => said.push(l))).toEqual([
      { Key: 'Interests', Value: 'Jazz' },
      { Key: 'Interests', Value: 'Blues' },
      { Key: 'Birthday', Value: '1990-05-17' },
    ]);
    expect(said).toEqual([expect.stringContaining('--field "Birthday=1990/05/17"')]);
  });
  it('says nothing of yyyy/mm/dd, 0000-00-00 or a value that is no date, and one line per value shaped like a date', () => {
    const said: string[] = [];
    fieldFlags(['Birthday=1990/05/17', 'Birthday=0000-00-00', 'Company=Acme', 'Code=12345678', 'Age=42'], (l) => said.push(l));
    expect(said).toEqual([]);
    fieldFlags(['A=2024/1/5', 'B=31/02/1990', 'C=03/03/1990', 'D=05/06/2024 10:00', 'E=2024-13-01'], (l) => said.push(l));
    expect(said).toEqual([
      expect.stringContaining('--field "A=2024/01/05"'),
      expect.stringMatching(/B "31\/02\/1990" .*no calendar day/),
      expect.stringContaining('--field "C=1990/03/03"'),
      expect.stringMatching(/D .*date and a time.*5 June 2024 \(--field "D=2024\/06\/05"\) or 6 May 2024 \(--field "D=2024\/05\/06"\)/),
      expect.stringMatching(/E .*no calendar day/),
    ]);
  });
  it('splits at the first = so values may hold one', () => {
    expect(fieldFlags(['Formula=a=b'])).toEqual([{ Key: 'Formula', Value: 'a=b' }]);
  });
  it('refuses a flag without Key= or with an empty value', () => {
    expect(() => fieldFlags(['Company'])).toThrow(UsageError);
    expect(() => fieldFlags(['=x'])).toThrow(UsageError);
    expect(() => fieldFlags(['Company='])).toThrow(/has no value/);
  });
  it('maps --clear-field Key to Clear with an empty Value, and Key=Value to clearing one option', () => {
    expect(clearFieldFlags(['Interests', 'Interests=Jazz'])).toEqual([
      { Key: 'Interests', Value: '', Clear: true },
      { Key: 'Interests', Value: 'Jazz', Clear: true },
    ]);
  });
});

describe('the fast address check', () => {
  it('agrees with isValidEmail on common, odd and broken addresses', () => {
    const samples = [
      'ada@example.com', 'a.b-c+d_e@sub.example.co.uk', 'x@y.io', 'UPPER@EXAMPLE.COM', "o'brien@example.ie", 'a..b@example.com',
      '.a@example.com', 'a.@example.com', 'a@example', 'a@-example.com', 'a@example-.com', 'a@ex_ample.com', '@example.com',
      'a@', 'a b@example.com', 'a@b@example.com', 'a@example.c', 'a@example.123', `${'a'.repeat(64)}@example.com`,
      `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(63)}.com`, `a@${'b'.repeat(64)}.com`, 'a@xn--bcher-kva.example', 'a@example.xn--p1ai',
      `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`, 'ünï@example.com', 'a@exämple.com', 'a{b}@example.com',
    ];
    for (const s of samples) expect(isAcceptableAddress(s), s).toBe(isValidEmail(s));
  });
});
