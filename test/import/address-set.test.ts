// Duplicate detection (CLI.md "Import guarantees"; the issue: case-insensitive, surrounding spaces trimmed, compact).
import { describe, expect, it } from 'vitest';
import { AddressSet } from '../../src/import/address-set.js';

describe('AddressSet', () => {
  it('treats addresses that differ only in case as the same', () => {
    const set = new AddressSet();
    expect(set.add('Ada@Example.com')).toBe(true);
    expect(set.add('ada@example.COM')).toBe(false);
    expect(set.add('ada@example.co')).toBe(true);
  });

  it('folds non-ASCII letters as toLowerCase does', () => {
    const set = new AddressSet();
    expect(set.add('ÉLODIE@example.com')).toBe(true);
    expect(set.add('élodie@example.com')).toBe(false);
  });

  it('finds no false duplicate among 300,000 distinct addresses and finds every repeat, across growth', () => {
    const set = new AddressSet();
    for (let i = 0; i < 300_000; i++) expect.soft(set.add(`person${i}@example.com`)).toBe(true);
    expect(set.size).toBe(300_000);
    let repeats = 0;
    for (let i = 0; i < 300_000; i += 97) if (!set.add(`PERSON${i}@EXAMPLE.COM`)) repeats++;
    expect(repeats).toBe(Math.ceil(300_000 / 97));
  });

  it('stays compact: at most 22 bytes per address', () => {
    const set = new AddressSet();
    for (let i = 0; i < 100_000; i++) set.add(`p${i}@example.com`);
    expect(set.bytes).toBeLessThanOrEqual(22 * 100_000);
  });
});
