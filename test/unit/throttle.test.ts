// The flow control of core/throttle.ts on a fake clock: no real waits.
import { describe, expect, it } from 'vitest';
import { CUT, RATE_SHARE, Throttle, type ThrottleClock, type ThrottleTicket } from '../../src/core/throttle.js';

/** A clock whose time moves only when the test says so, running the timers that fall due. */
class FakeClock implements ThrottleClock {
  private time = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  /** Moves time forward by ms, running each timer at its moment. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flush();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.time = next.at;
      next.fn();
    }
    this.time = end;
    await flush();
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const ok = { status: 200, headers: {} };
const limited = (limit: number, resetSeconds: number, remaining = 0) => ({
  status: 200,
  headers: { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetSeconds) },
});
const tooMany = (headers: Record<string, string> = {}) => ({ status: 429, headers });

/** Asks for n turns at once; records when each started. */
function ask(throttle: Throttle, n: number, clock: FakeClock, opts: { retry?: boolean } = {}) {
  const started: { at: number; ticket: ThrottleTicket }[] = [];
  for (let i = 0; i < n; i++) {
    void throttle.acquire(opts).then((ticket) => started.push({ at: clock.now(), ticket }));
  }
  return started;
}

describe('Throttle', () => {
  it('sends the first request alone, then opens the window to --concurrency when no limit is stated', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle({ maxInFlight: 4, clock });
    const started = ask(throttle, 6, clock);
    await clock.advance(0);
    expect(started).toHaveLength(1);
    await clock.advance(10);
    throttle.done(started[0]!.ticket, ok);
    await clock.advance(0);
    // Four in flight at once, unpaced: the fast path is not slowed.
    expect(started).toHaveLength(5);
    expect(new Set(started.slice(1).map((s) => s.at))).toEqual(new Set([10]));
    expect(throttle.stats.ratePerSecond).toBe(Number.POSITIVE_INFINITY);
  });

  it('paces evenly at a share of the limit X-RateLimit-Limit and X-RateLimit-Reset state', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const throttle = new Throttle({ maxInFlight: 8, clock, debug: (l) => lines.push(l) });
    const started = ask(throttle, 11, clock);
    await clock.advance(0);
    await clock.advance(5);
    throttle.done(started[0]!.ticket, limited(5, 1, 4));
    // Each answer comes back at once; the pace, not the window, holds the rest.
    for (let t = 0; t < 3000; t += 1) {
      for (const s of started) if (!s.ticket.settled) throttle.done(s.ticket, limited(5, 1));
      await clock.advance(1);
    }
    expect(started).toHaveLength(11);
    const interval = 1000 / (RATE_SHARE * 5);
    const gaps = started.slice(1).map((s, i) => s.at - started[i]!.at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(Math.floor(interval));
    // Never more than the limit in any one-second span.
    for (const s of started) expect(started.filter((o) => o.at >= s.at && o.at < s.at + 1000).length).toBeLessThanOrEqual(5);
    expect(lines.join('\n')).toMatch(/allows 5 requests per 1 s .*pacing at 4\.8 requests\/s/);
    expect(throttle.stats.waitedMs).toBeGreaterThan(0);
  });

  it('meets a 429 with one shared pause: nothing starts until it ends, and the refused request goes first', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const throttle = new Throttle({ maxInFlight: 8, clock, debug: (l) => lines.push(l) });
    const first = ask(throttle, 1, clock);
    await clock.advance(0);
    throttle.done(first[0]!.ticket, ok);
    const burst = ask(throttle, 7, clock);
    await clock.advance(0);
    expect(burst).toHaveLength(7);
    // Two succeed, five are refused, naming a 1 s wait: one pause, one cut.
    await clock.advance(5);
    throttle.done(burst[0]!.ticket, ok);
    throttle.done(burst[1]!.ticket, ok);
    for (const s of burst.slice(2)) throttle.done(s.ticket, tooMany(), 1000);
    expect(throttle.stats.rateLimited).toBe(5);
    expect(lines.filter((l) => l.includes('one shared pause'))).toHaveLength(1);
    const later = ask(throttle, 2, clock);
    const retried = ask(throttle, 1, clock, { retry: true });
    await clock.advance(990);
    expect(later).toHaveLength(0);
    expect(retried).toHaveLength(0);
    await clock.advance(10);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.at).toBe(1005);
    // Paced after the pause, from what the service let through (3 in the last second), cut.
    const rate = throttle.stats.ratePerSecond;
    expect(rate).toBeCloseTo(CUT * 3, 5);
    await clock.advance(Math.ceil(1000 / rate) + 1);
    expect(later).toHaveLength(1);
  });

  it('takes the limit from a 429 that alone carries the headers, and paces at it after the pause', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle({ maxInFlight: 8, clock });
    const first = ask(throttle, 1, clock);
    await clock.advance(0);
    throttle.done(first[0]!.ticket, ok);
    const burst = ask(throttle, 7, clock);
    await clock.advance(2);
    for (const s of burst) throttle.done(s.ticket, s === burst[0] ? ok : tooMany({ 'x-ratelimit-limit': '2', 'x-ratelimit-reset': '1' }), 1000);
    expect(throttle.stats.ratePerSecond).toBeLessThanOrEqual(RATE_SHARE * 2);
    expect(throttle.stats.ratePerSecond).toBeGreaterThan(1);
  });

  it('raises the pace additively as answers succeed, up to the stated limit', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle({ maxInFlight: 2, clock });
    const first = ask(throttle, 1, clock);
    await clock.advance(0);
    throttle.done(first[0]!.ticket, limited(10, 1));
    const one = ask(throttle, 1, clock);
    await clock.advance(200);
    throttle.done(one[0]!.ticket, tooMany(), 500);
    const cut = throttle.stats.ratePerSecond;
    expect(cut).toBeLessThan(RATE_SHARE * 10);
    let previous = cut;
    for (let i = 0; i < 60; i++) {
      const s = ask(throttle, 1, clock);
      await clock.advance(2000);
      throttle.done(s[0]!.ticket, limited(10, 1));
      const now = throttle.stats.ratePerSecond;
      expect(now).toBeGreaterThanOrEqual(previous);
      expect(now - previous).toBeLessThanOrEqual(0.3 + 1e-9);
      previous = now;
    }
    expect(previous).toBeCloseTo(RATE_SHARE * 10, 5);
  });

  it('does not cut again for answers to requests sent before the cut', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle({ maxInFlight: 8, clock });
    const first = ask(throttle, 1, clock);
    await clock.advance(0);
    throttle.done(first[0]!.ticket, limited(8, 1));
    const burst = ask(throttle, 3, clock);
    await clock.advance(1000);
    expect(burst).toHaveLength(3);
    throttle.done(burst[0]!.ticket, tooMany(), 1000);
    const once = throttle.stats.ratePerSecond;
    throttle.done(burst[1]!.ticket, tooMany(), 1500);
    throttle.done(burst[2]!.ticket, tooMany(), 1000);
    expect(throttle.stats.ratePerSecond).toBe(once);
    // The longer wait named by a later 429 extends the shared pause.
    const next = ask(throttle, 1, clock, { retry: true });
    await clock.advance(1499);
    expect(next).toHaveLength(0);
    await clock.advance(1);
    expect(next).toHaveLength(1);
  });

  it('pauses without choosing a pace when a 429 comes before anything got through to measure the limit by', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle({ maxInFlight: 4, clock });
    const first = ask(throttle, 1, clock);
    await clock.advance(0);
    throttle.done(first[0]!.ticket, tooMany(), 2000);
    expect(throttle.stats.ratePerSecond).toBe(Number.POSITIVE_INFINITY);
    const next = ask(throttle, 2, clock, { retry: true });
    await clock.advance(1999);
    expect(next).toHaveLength(0);
    await clock.advance(1);
    expect(next).toHaveLength(2);
  });

  it('keeps --concurrency as the ceiling on requests in flight', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle({ maxInFlight: 3, clock });
    const first = ask(throttle, 1, clock);
    await clock.advance(0);
    throttle.done(first[0]!.ticket, ok);
    const rest = ask(throttle, 10, clock);
    await clock.advance(1000);
    expect(rest).toHaveLength(3);
    throttle.done(rest[0]!.ticket, ok);
    await clock.advance(0);
    expect(rest).toHaveLength(4);
  });

  it('lets a waiting request go when its signal aborts', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle({ maxInFlight: 1, clock });
    const first = ask(throttle, 1, clock);
    await clock.advance(0);
    const controller = new AbortController();
    const waiting = throttle.acquire({ signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    throttle.done(first[0]!.ticket, ok);
    const next = ask(throttle, 1, clock);
    await clock.advance(0);
    expect(next).toHaveLength(1);
  });
});
