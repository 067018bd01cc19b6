// Batching as the service does it (service-spec.md "Events" rule 3).
import { describe, expect, it } from 'vitest';
import { batchesOf, requestCount } from '../../src/webhooks/batches.js';

describe('batchesOf', () => {
  it('groups 6,500 events as six requests of 1000 and one of 500, in order', () => {
    const batches = [...batchesOf(Array.from({ length: 6500 }, (_, i) => i))];
    expect(batches.map((b) => b.length)).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 500]);
    expect(batches.flat()).toEqual(Array.from({ length: 6500 }, (_, i) => i));
  });

  it('gives nothing for no events, one short batch for fewer than the size, and takes any iterable lazily', () => {
    expect([...batchesOf([])]).toEqual([]);
    expect([...batchesOf([1, 2], 3)]).toEqual([[1, 2]]);
    let pulled = 0;
    const source = (function* () {
      for (let i = 0; ; i++) {
        pulled++;
        yield i;
      }
    })();
    const first = batchesOf(source, 2).next();
    expect(first.value).toEqual([0, 1]);
    expect(pulled).toBe(2);
  });

  it('refuses a batch size that is not a positive integer', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => [...batchesOf([1], size)], String(size)).toThrow(RangeError);
  });

  it('counts the requests a number of events takes', () => {
    expect([0, 1, 1000, 1001, 6500].map((n) => requestCount(n))).toEqual([0, 1, 1, 2, 7]);
    expect(requestCount(5, 2)).toBe(3);
  });
});
