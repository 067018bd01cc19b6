// The value checks shared by subscribers add, update and import.
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
  it('refuses dd/mm/yyyy and mm/dd/yyyy as ambiguous and shows both readings', () => {
    const problem = checkFieldValue('Birthday', '05/06/2024');
    expect(problem).toEqual({ code: 'ambiguous-date', message: expect.stringContaining('2024/06/05 or 2024/05/06') });
    expect(checkFieldValue('Birthday', '25.12.2024')).toMatchObject({ code: 'ambiguous-date' });
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
  it('keeps a repeated key as separate items (MultiSelectMany) in order', () => {
    expect(fieldFlags(['Interests=Jazz', 'Interests=Blues', 'Birthday=1990-05-17'])).toEqual([
      { Key: 'Interests', Value: 'Jazz' },
      { Key: 'Interests', Value: 'Blues' },
      { Key: 'Birthday', Value: '1990/05/17' },
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
