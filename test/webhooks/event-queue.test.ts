// The listener's queue of events waiting for the renderer: in order, a
// delivery let go once the renderer asks past its last event, and everything
// let go at once when the renderer stops taking.
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/webhooks/event-queue.js';

describe('EventQueue', () => {
  it('gives the records in order and lets a delivery go only when the next is asked for after its last one', async () => {
    const q = new EventQueue<string>();
    const taken: number[] = [];
    q.push(['a', 'b'], () => taken.push(1));
    q.push(['c'], () => taken.push(2));
    expect(await q.next()).toEqual({ done: false, value: 'a' });
    expect(await q.next()).toEqual({ done: false, value: 'b' });
    expect(taken).toEqual([]); // b is not written yet
    expect(await q.next()).toEqual({ done: false, value: 'c' });
    expect(taken).toEqual([1]);
    const waiting = q.next();
    expect(taken).toEqual([1, 2]);
    q.push([], () => taken.push(3)); // a delivery with nothing to print goes at once
    expect(taken).toEqual([1, 2, 3]);
    q.push(['d'], () => taken.push(4));
    expect(await waiting).toEqual({ done: false, value: 'd' });
    q.end();
    expect(await q.next()).toEqual({ done: true, value: undefined });
    expect(taken).toEqual([1, 2, 3, 4]);
  });

  it('ends only once what was queued is taken', async () => {
    const q = new EventQueue<number>();
    q.push([1, 2], () => undefined);
    q.end();
    const seen: number[] = [];
    for await (const n of q) seen.push(n);
    expect(seen).toEqual([1, 2]);
  });

  it('when the renderer stops taking, lets go what is queued and every later delivery, and ends a pending next', async () => {
    const q = new EventQueue<number>();
    const taken: number[] = [];
    q.push([1], () => taken.push(1));
    q.push([2], () => taken.push(2));
    expect((await q.next()).value).toBe(1);
    await q.return();
    expect(taken).toEqual([1, 2]);
    q.push([3], () => taken.push(3));
    expect(taken).toEqual([1, 2, 3]);
    expect(await q.next()).toEqual({ done: true, value: undefined });

    const idle = new EventQueue<number>();
    const pending = idle.next();
    await idle.return();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it('withdraws a delivery not yet written: its records are never given, its taken() never runs; a written one cannot be', async () => {
    const q = new EventQueue<string>();
    const taken: [number, boolean][] = [];
    const first = q.push(['a'], (w) => taken.push([1, w]));
    const second = q.push(['b', 'c'], (w) => taken.push([2, w]));
    expect(await q.next()).toEqual({ done: false, value: 'a' });
    expect(q.idle).toBe(false);
    expect(await q.next()).toEqual({ done: false, value: 'b' });
    expect(taken).toEqual([[1, true]]);
    expect(first()).toBe(false);
    expect(second()).toBe(true); // partly given: the rest is not
    expect(second()).toBe(false);
    const waiting = q.next();
    expect(q.idle).toBe(true);
    q.push(['d'], (w) => taken.push([3, w]));
    expect(await waiting).toEqual({ done: false, value: 'd' });
    expect(taken).toEqual([[1, true]]);
  });
});
