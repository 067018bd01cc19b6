// The listener's queue of events waiting for the renderer: in order, a
// delivery let go once the renderer asks past its last event, and everything
// let go at once when the renderer stops taking.
import { describe, expect, it } from 'vitest';
import { eventQueue } from '../../src/webhooks/event-queue.js';

/** The queue and an iterator over its records. */
function queue<T>() {
  const q = eventQueue<T>();
  return { q, it: q.records[Symbol.asyncIterator]() };
}

describe('eventQueue', () => {
  it('gives the records in order and lets a delivery go only when the next is asked for after its last one', async () => {
    const { q, it } = queue<string>();
    const taken: number[] = [];
    q.push(['a', 'b'], () => taken.push(1));
    q.push(['c'], () => taken.push(2));
    expect(await it.next()).toEqual({ done: false, value: 'a' });
    expect(await it.next()).toEqual({ done: false, value: 'b' });
    expect(taken).toEqual([]); // b is not written yet
    expect(await it.next()).toEqual({ done: false, value: 'c' });
    expect(taken).toEqual([1]);
    const waiting = it.next();
    await flush();
    expect(taken).toEqual([1, 2]);
    q.push([], () => taken.push(3)); // a delivery with nothing to print goes at once
    await flush();
    expect(taken).toEqual([1, 2, 3]);
    q.push(['d'], () => taken.push(4));
    expect(await waiting).toEqual({ done: false, value: 'd' });
    q.end();
    expect(await it.next()).toEqual({ done: true, value: undefined });
    expect(taken).toEqual([1, 2, 3, 4]);
  });

  it('ends only once what was queued is taken', async () => {
    const q = eventQueue<number>();
    q.push([1, 2], () => undefined);
    q.end();
    const seen: number[] = [];
    for await (const n of q.records) seen.push(n);
    expect(seen).toEqual([1, 2]);
  });

  it('when the renderer stops taking, lets go what is queued, the delivery it was in, and every later delivery', async () => {
    const { q, it } = queue<number>();
    const taken: [number, boolean][] = [];
    q.push([1, 1], (w) => taken.push([1, w]));
    q.push([2], (w) => taken.push([2, w]));
    expect((await it.next()).value).toBe(1);
    await it.return!();
    expect(taken).toEqual([
      [1, false],
      [2, false],
    ]);
    q.push([3], (w) => taken.push([3, w]));
    expect(taken).toContainEqual([3, false]);
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it('withdraws a delivery not yet written: its records are never given, its taken() never runs; a written one cannot be', async () => {
    const { q, it } = queue<string>();
    const taken: [number, boolean][] = [];
    const first = q.push(['a'], (w) => taken.push([1, w]));
    const second = q.push(['b', 'c'], (w) => taken.push([2, w]));
    expect(await it.next()).toEqual({ done: false, value: 'a' });
    expect(q.idle).toBe(false);
    expect(await it.next()).toEqual({ done: false, value: 'b' });
    expect(taken).toEqual([[1, true]]);
    expect(first()).toBe(false);
    expect(second()).toBe(true); // partly given: the rest is not
    expect(second()).toBe(false);
    const waiting = it.next();
    await flush();
    expect(q.idle).toBe(true);
    q.push(['d'], (w) => taken.push([3, w]));
    expect(await waiting).toEqual({ done: false, value: 'd' });
    expect(taken).toEqual([[1, true]]);
  });
});

const flush = () => new Promise((resolve) => setImmediate(resolve));
