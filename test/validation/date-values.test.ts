// Values shaped like dates, and date-times, as `--field` and the import read them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateReadings, dateTimeDatePart, typedDateNotice } from '../../src/validation/date-values.js';
import { isCalendarDay } from '../../src/sandbox/custom-field-values.js';

describe('dateTimeDatePart', () => {
  it('finds the date of the date-times exports write', () => {
    expect(dateTimeDatePart('2018-02-12 10:54:27')).toBe('2018-02-12');
    expect(dateTimeDatePart('2018-08-27T15:06:27.713Z')).toBe('2018-08-27');
    expect(dateTimeDatePart('2018-02-12 10:54:27 UTC')).toBe('2018-02-12');
    expect(dateTimeDatePart('2024-01-01 10:00')).toBe('2024-01-01');
    expect(dateTimeDatePart('2024-01-01T10:00:00+02:00')).toBe('2024-01-01');
    expect(dateTimeDatePart('2018-02-12 10:54:27 -0500')).toBe('2018-02-12');
    expect(dateTimeDatePart('12/02/2018 10:54')).toBe('12/02/2018');
    expect(dateTimeDatePart('1/2/2024 9:05 AM')).toBe('1/2/2024');
    expect(dateTimeDatePart('2024/1/5, 10:00')).toBe('2024/1/5');
  });
  it('leaves everything else alone', () => {
    for (const value of ['2024-01-01', '2024-01-01 and more', '12345678901234', 'Acme 2024-01-01 10:00', '2024-01-01 10', '2024-01-01 10:00 tomorrow', '']) {
      expect(dateTimeDatePart(value), value).toBeUndefined();
    }
  });
});

describe('dateReadings', () => {
  it('reads a year-first date one way, a slashed one each way it is a day, and nothing for 0000-00-00', () => {
    expect(dateReadings('2024-01-31')).toEqual([{ ymd: '2024/01/31', words: '31 January 2024' }]);
    expect(dateReadings('1.2.2024')!.map((r) => r.ymd)).toEqual(['2024/02/01', '2024/01/02']);
    expect(dateReadings('15.03.2024')!.map((r) => r.ymd)).toEqual(['2024/03/15']);
    expect(dateReadings('03/03/1990')!.map((r) => r.ymd)).toEqual(['1990/03/03']);
    expect(dateReadings('31/02/1990')).toEqual([]);
    expect(dateReadings('0000-00-00')).toBeUndefined();
    expect(dateReadings('C-1001')).toBeUndefined();
  });
  it('every reading it offers is a calendar day the service reads (property)', () => {
    const part = (max: number) => fc.integer({ min: 0, max }).map(String);
    const value = fc.oneof(
      fc.tuple(part(39), fc.constantFrom('/', '.', '-'), part(39), fc.integer({ min: 0, max: 9999 })).map(([a, s, b, y]) => `${a}${s}${b}${s}${String(y).padStart(4, '0')}`),
      fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.constantFrom('/', '-'), part(39), part(39)).map(([y, s, m, d]) => `${String(y).padStart(4, '0')}${s}${m}${s}${d}`),
    );
    fc.assert(
      fc.property(value, (v) => {
        for (const r of dateReadings(v) ?? []) {
          const [y, m, d] = r.ymd.split('/').map(Number) as [number, number, number];
          expect(isCalendarDay(y, m, d), `${v} → ${r.ymd}`).toBe(true);
          expect(typedDateNotice('K', v) ?? '').not.toMatch(/=(?!\d{4}\/\d{2}\/\d{2}")/);
        }
      }),
    );
  });
});
