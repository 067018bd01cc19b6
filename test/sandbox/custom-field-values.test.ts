import { describe, expect, it } from 'vitest';
import { normalizeDate } from '../../src/sandbox/custom-field-values.js';
import { parseRuleDate } from '../../src/sandbox/segment-rules.js';

describe('year-first dates (service-spec.md "Custom field value" rule 3)', () => {
  it('reads a calendar day of any four-digit year, years before 100 included (Date.UTC would move them to 19xx)', () => {
    expect(normalizeDate('0050/01/31')).toBe('0050-01-31');
    expect(normalizeDate('0004-02-29')).toBe('0004-02-29');
    expect(parseRuleDate('0099/12/31')).toBe('0099-12-31');
  });

  it('refuses a day that is not in the calendar', () => {
    expect(normalizeDate('1990/02/30')).toBeUndefined();
    expect(normalizeDate('0003-02-29')).toBeUndefined();
    expect(parseRuleDate('2023/02/29')).toBeUndefined();
    expect(normalizeDate('1990/13/01')).toBeUndefined();
  });
});
