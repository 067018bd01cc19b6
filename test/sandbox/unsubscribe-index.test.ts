// Sort orders of a campaign's generated unsubscribe records
// (src/sandbox/unsubscribe-index.ts): built once, stable, per sandbox.
import { describe, expect, it } from 'vitest';
import type { SandboxCampaign } from '../../src/sandbox/types-campaigns.js';
import { filteredBy, lowerBound, sortedBy, UnsubscribeIndexes } from '../../src/sandbox/unsubscribe-index.js';

const campaign = (id: string, seed = 7) => ({ CampaignID: id, Unsubscribes: { Seed: seed, Share: 1 }, SentDate: '2024-02-01T10:00:00.000Z', ListIDs: ['l1'] }) as unknown as SandboxCampaign;

describe('UnsubscribeIndexes', () => {
  it("generates a campaign's records once, and again for another count or campaign", () => {
    const indexes = new UnsubscribeIndexes();
    const a = indexes.of(campaign('a'), 300);
    expect(indexes.of(campaign('a'), 300)).toBe(a);
    expect(indexes.of(campaign('a'), 301)).not.toBe(a);
    expect(indexes.of(campaign('b'), 300)).not.toBe(a);
    expect(new UnsubscribeIndexes().of(campaign('a'), 300)).not.toBe(a);
  });

  it('keeps the indexes of eight campaigns, dropping the oldest', () => {
    const indexes = new UnsubscribeIndexes();
    const first = indexes.of(campaign('c0'), 10);
    for (let i = 1; i < 8; i++) indexes.of(campaign(`c${i}`), 10);
    expect(indexes.of(campaign('c0'), 10)).toBe(first);
    indexes.of(campaign('c8'), 10);
    expect(indexes.of(campaign('c0'), 10)).not.toBe(first);
  });
});

describe('sortedBy', () => {
  const index = new UnsubscribeIndexes().of(campaign('s'), 2000);
  const { records } = index;

  it.each(['email', 'name', 'date'] as const)('orders every record once by %s, ties in record order, and caches the order', (field) => {
    const order = sortedBy(index, field);
    expect(sortedBy(index, field)).toBe(order);
    expect(new Set(order).size).toBe(records.count);
    const key = (i: number) => (field === 'date' ? records.dates[i]! : field === 'email' ? records.emails[i]! : records.names[i]!);
    for (let k = 1; k < order.length; k++) {
      const [a, b] = [order[k - 1]!, order[k]!];
      expect(key(a) < key(b) || (key(a) === key(b) && a < b), `${a} before ${b}`).toBe(true);
    }
  });

  it('filters an order to the records at or after a date, keeping the order, and finds where they start', () => {
    const byDate = sortedBy(index, 'date');
    const since = records.dates[byDate[1000]!]!;
    const filtered = filteredBy(index, 'date', byDate, since);
    expect(filteredBy(index, 'date', byDate, since)).toBe(filtered);
    expect([...filtered]).toEqual([...byDate].filter((i) => records.dates[i]! >= since));
    const start = lowerBound(byDate, records.dates, since);
    expect(records.dates[byDate[start]!]).toBeGreaterThanOrEqual(since);
    if (start > 0) expect(records.dates[byDate[start - 1]!]).toBeLessThan(since);
    expect(lowerBound(byDate, records.dates, Number.POSITIVE_INFINITY)).toBe(byDate.length);
    expect(lowerBound(byDate, records.dates, 0)).toBe(0);
  });
});
