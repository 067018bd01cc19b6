// The duplicates stage of an import (src/import/dedupe.ts): rows leave in
// file order as rejected, duplicate or unique, whatever the grouping.
import { describe, expect, it } from 'vitest';
import { GROUP_SIZE } from '../../src/import/address-set.js';
import { Dedupe } from '../../src/import/dedupe.js';
import type { ImportEntry } from '../../src/import/rows.js';

const entry = (email: string): ImportEntry => ({ EmailAddress: email, Name: '', CustomFields: [], ConsentToTrack: 'Yes' });

function run(rows: ({ email: string } | { rejectedEmail: string })[]): string[] {
  const out: string[] = [];
  const dedupe = new Dedupe(rows.length, {
    rejected: (_record, line, code) => out.push(`${line} rejected ${code}`),
    duplicate: (_record, line) => out.push(`${line} duplicate`),
    unique: (e, _record, line, fingerprints, at) => {
      expect(fingerprints[at]! + fingerprints[at + 1]!).toBeGreaterThan(0);
      out.push(`${line} unique ${e.EmailAddress}`);
    },
  });
  rows.forEach((row, i) => {
    if ('email' in row) dedupe.add(entry(row.email), row.email, [row.email], i + 2);
    else dedupe.reject([row.rejectedEmail], i + 2, '215', 'bad consent', row.rejectedEmail);
  });
  dedupe.flush();
  return out;
}

describe('Dedupe', () => {
  it('lets the first row of an address through and reports later ones as duplicates, in file order', () => {
    expect(run([{ email: 'a@example.com' }, { email: 'b@example.com' }, { email: 'a@example.com' }])).toEqual(['2 unique a@example.com', '3 unique b@example.com', '4 duplicate']);
  });

  it('a refused row never takes its address, but a refused row after the address was sent is a duplicate', () => {
    expect(run([{ rejectedEmail: 'a@example.com' }, { email: 'a@example.com' }, { rejectedEmail: 'a@example.com' }, { rejectedEmail: '' }])).toEqual([
      '2 rejected 215',
      '3 unique a@example.com',
      '4 duplicate',
      '5 rejected 215',
    ]);
  });

  it('gives the same outcomes across group boundaries as within one group', () => {
    const rows = Array.from({ length: 3 * GROUP_SIZE + 7 }, (_, i) => ({ email: `p${i % (GROUP_SIZE + 3)}@example.com` }));
    const out = run(rows);
    expect(out).toHaveLength(rows.length);
    out.forEach((line, i) => expect(line, `row ${i}`).toBe(i < GROUP_SIZE + 3 ? `${i + 2} unique p${i}@example.com` : `${i + 2} duplicate`));
  });

  it('flushes nothing twice and nothing when empty', () => {
    const out: string[] = [];
    const dedupe = new Dedupe(0, { rejected: () => out.push('r'), duplicate: () => out.push('d'), unique: () => out.push('u') });
    dedupe.flush();
    dedupe.add(entry('a@example.com'), 'a@example.com', [], 2);
    dedupe.flush();
    dedupe.flush();
    expect(out).toEqual(['u']);
  });
});
