import { describe, expect, it } from 'vitest';
import { InterruptHub, SAME_INTERRUPTION_MS } from '../../src/core/interrupts.js';

/** A hub on a clock the test moves. */
function hub() {
  let now = 1_000;
  const h = new InterruptHub(() => now);
  const counts: number[] = [];
  h.register((count) => counts.push(count));
  return { h, counts, advance: (ms: number) => (now += ms) };
}

describe('InterruptHub', () => {
  it('counts two signals less than 100 ms apart as one interruption (timeout and CI runners signal the process, then its group)', () => {
    const { h, counts, advance } = hub();
    h.fire();
    advance(SAME_INTERRUPTION_MS - 1);
    h.fire();
    expect(counts).toEqual([1]);
  });

  it('counts a second press 100 ms or more after the first as a second interruption', () => {
    const { h, counts, advance } = hub();
    h.fire();
    advance(SAME_INTERRUPTION_MS);
    h.fire();
    expect(counts).toEqual([1, 2]);
  });

  it('measures from the press that counted: a burst does not postpone the second interruption', () => {
    const { h, counts, advance } = hub();
    h.fire();
    advance(60);
    h.fire();
    advance(60);
    h.fire();
    expect(counts).toEqual([1, 2]);
  });

  it('says whether a command handled the press, and counts presses nobody handled', () => {
    let now = 0;
    const h = new InterruptHub(() => now);
    expect(h.fire()).toEqual({ count: 1, handled: false });
    now += 10;
    expect(h.fire()).toEqual({ count: 1, handled: false, repeated: true });
    now += 200;
    const off = h.register(() => undefined);
    expect(h.fire()).toEqual({ count: 2, handled: true });
    off();
  });
});
