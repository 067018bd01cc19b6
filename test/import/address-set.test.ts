// Duplicate detection (CLI.md "Import guarantees"; the issue: case-insensitive, surrounding spaces trimmed, compact).
import { describe, expect, it } from 'vitest';
import { AddressSet, fingerprint, GROUP_SIZE } from '../../src/import/address-set.js';

const print = (text: string) => {
  const out = new Uint32Array(2);
  fingerprint(text, out, 0);
  return `${out[0]}:${out[1]}`;
};

describe('AddressSet', () => {
  it('treats addresses that differ only in case as the same', () => {
    const set = new AddressSet();
    expect(set.add('Ada@Example.com')).toBe(true);
    expect(set.add('ada@example.COM')).toBe(false);
    expect(set.add('ada@example.co')).toBe(true);
  });

  it('folds exactly A-Z, at even and odd positions alike, and nothing else', () => {
    for (let c = 0; c < 128; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [`${ch}bc@x.io`, `a${ch}c@x.io`, `ab${ch}`]) {
        expect(print(text), JSON.stringify(text)).toBe(print(text.toLowerCase()));
        if (ch.toLowerCase() !== ch.toUpperCase()) continue;
        // A character without case is never taken for another one.
        const other = String.fromCharCode(c ^ 0x20);
        if (other !== ch && other.toLowerCase() !== ch) expect(print(text.replace(ch, other)), JSON.stringify(text)).not.toBe(print(text));
      }
    }
  });

  it('folds non-ASCII letters as toLowerCase does, including to ASCII (the Kelvin sign)', () => {
    const set = new AddressSet();
    expect(set.add('ÉLODIE@example.com')).toBe(true);
    expect(set.add('élodie@example.com')).toBe(false);
    expect(set.add('kelvin@example.com')).toBe(true);
    expect(set.add('\u212Aelvin@example.com')).toBe(false);
  });

  it('adds a staged group in order: a repeat inside the group is a duplicate of the earlier one', () => {
    const set = new AddressSet();
    set.add('first@example.com');
    for (const a of ['a@x.io', 'FIRST@example.com', 'b@x.io', 'A@X.IO']) set.stage(a);
    const isNew = new Uint8Array(GROUP_SIZE);
    expect(set.addStaged(isNew)).toBe(4);
    expect([...isNew.subarray(0, 4)]).toEqual([1, 0, 1, 0]);
    expect(set.size).toBe(3);
  });

  it('finds no false duplicate among 2,000,000 look-alike addresses, and finds every repeat, across growth', () => {
    const set = new AddressSet();
    const isNew = new Uint8Array(GROUP_SIZE);
    let fresh = 0;
    const addAll = (make: (i: number) => string, count: number) => {
      for (let i = 0; i < count; i++) {
        set.stage(make(i));
        if (set.stagedSize === GROUP_SIZE) {
          set.addStaged(isNew);
          fresh += isNew.reduce((a, b) => a + b, 0);
        }
      }
      const n = set.addStaged(isNew);
      fresh += isNew.subarray(0, n).reduce((a, b) => a + b, 0);
    };
    addAll((i) => `person${i}@example.com`, 1_000_000);
    addAll((i) => `${i.toString(36)}@x${i % 10}.io`, 500_000);
    addAll((i) => `p.${i % 1000}.${Math.floor(i / 1000)}@example.org`, 500_000);
    expect(fresh).toBe(2_000_000);
    const before = fresh;
    addAll((i) => `PERSON${i * 97}@EXAMPLE.COM`, 10_000);
    expect(fresh).toBe(before);
  });

  it('stays compact: at most 14 bytes per address when it grows, 9.4 bytes when sized from an estimate', () => {
    const set = new AddressSet();
    for (let i = 0; i < 100_000; i++) set.add(`p${i}@example.com`);
    expect(set.bytes).toBeLessThanOrEqual(14 * 100_000);
    const sized = new AddressSet(1_000_000);
    expect(sized.bytes).toBe(Math.ceil(1_000_000 / 0.85) * 8);
    for (let i = 0; i < 1_050_000; i++) sized.add(`p${i}@example.com`);
    expect(sized.bytes).toBe(Math.ceil(1_000_000 / 0.85) * 8); // 5 % more than estimated: no growth
  });
});
