import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { checkDay, checkSince, checkStatisticsQuery } from '../../src/validation/query-params.js';

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof UsageError) return err.code;
    throw err;
  }
  return undefined;
}

describe('unsubscribes query checks', () => {
  it('accept real moments written YYYY-MM-DD HH:MM, leap days included', () => {
    expect(checkSince('2024-02-29 23:59')).toBe('2024-02-29 23:59');
    expect(checkSince(undefined)).toBeUndefined();
    expect(codeOf(() => checkSince('2023-02-29 10:00'))).toBe(5);
    expect(codeOf(() => checkSince('2024-06-01 9:30'))).toBe(5);
    expect(checkSince('2024-02-29')).toBe('2024-02-29 00:00');
    expect(checkSince('2024-02-29T23:59')).toBe('2024-02-29 23:59');
    expect(codeOf(() => checkSince('2023-02-29'))).toBe(5);
    expect(codeOf(() => checkSince('2024-06-01 09:60'))).toBe(5);
  });
});

describe('statistics query checks', () => {
  it('days are YYYY-MM-DD calendar days', () => {
    expect(checkDay('2024-12-31', '--to', 922)).toBe('2024-12-31');
    expect(codeOf(() => checkDay('2024-04-31', '--to', 922))).toBe(922);
  });

  it('check from ≤ to only when both are given (the defaults are days of the account time zone)', () => {
    expect(codeOf(() => checkStatisticsQuery({ from: '2024-02-02', to: '2024-02-01' }))).toBe(921);
    expect(checkStatisticsQuery({ from: '2999-01-01' })).toMatchObject({ from: '2999-01-01', to: undefined });
  });

  it('group and smart email exclude each other (924) before the id is checked', () => {
    expect(codeOf(() => checkStatisticsQuery({ group: 'g', smartEmail: 'not-a-guid' }))).toBe(924);
    expect(codeOf(() => checkStatisticsQuery({ smartEmail: 'not-a-guid' }))).toBe(925);
  });

});
