import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { bareString, dateTime, lenientInt } from '../../src/schemas/common.js';

describe('response schema blocks', () => {
  it('accept numbers sent as strings without rewriting them', () => {
    expect(lenientInt.parse('12')).toBe('12');
    expect(lenientInt.parse(12)).toBe(12);
    expect(lenientInt.safeParse('12a').success).toBe(false);
  });
  it('accept both date forms of the service', () => {
    expect(dateTime.safeParse('2010-10-11 08:29:00').success).toBe(true);
    expect(dateTime.safeParse('2024-06-01T08:29:00+02:00').success).toBe(true);
    expect(dateTime.safeParse('2024-06-01T08:29:00Z').success).toBe(true);
    expect(dateTime.safeParse('11/10/2010').success).toBe(false);
  });
  it('keep unknown fields of loose objects', () => {
    const s = z.looseObject({ ListID: z.string() });
    expect(s.parse({ ListID: 'a', Extra: 1 })).toEqual({ ListID: 'a', Extra: 1 });
  });
  it('take the bare JSON string of create calls', () => {
    expect(bareString.parse('3f1c…')).toBe('3f1c…');
  });
});
