// The one "at most n at once" (src/core/limiter.ts): weights, arrival order,
// aborts, refusal instead of waiting, a changing capacity. The examples pin
// each rule; the properties run random sequences of takes, releases, aborts
// and capacity changes against what must always hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Channel, Limiter, type Release } from '../../src/core/limiter.js';

/** Lets granted promises' callbacks run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Limiter', () => {
  it('grants at once while there is room, then makes the next wait until a release', async () => {
    const limiter = new Limiter(2);
    const a = await limiter.acquire();
    await limiter.acquire();
    let third: Release | undefined;
    void limiter.acquire().then((release) => (third = release));
    await flush();
    expect(third).toBeUndefined();
    expect(limiter).toMatchObject({ used: 2, waiting: 1 });
    a();
    await flush();
    expect(third).toBeDefined();
    expect(limiter).toMatchObject({ used: 2, waiting: 0, peak: 2 });
  });

  it('counts weights: bytes held, not holders', async () => {
    const limiter = new Limiter(100);
    const first = limiter.tryAcquire(60)!;
    expect(limiter.tryAcquire(50)).toBeUndefined();
    const second = limiter.tryAcquire(40)!;
    expect(limiter.used).toBe(100);
    first();
    second();
    expect(limiter.used).toBe(0);
    expect(limiter.peak).toBe(100);
  });

  it('serves waiters strictly in arrival order: a light one does not pass a heavy one', async () => {
    const limiter = new Limiter(10);
    const hold = limiter.tryAcquire(8)!;
    const order: string[] = [];
    void limiter.acquire(5).then(() => order.push('heavy'));
    void limiter.acquire(1).then(() => order.push('light'));
    await flush();
    expect(order).toEqual([]); // 1 would fit beside the 8, but the heavy one came first
    expect(limiter.tryAcquire(1)).toBeUndefined(); // nor does a refusing caller jump the line
    hold();
    await flush();
    expect(order).toEqual(['heavy', 'light']);
  });

  it('lets a weight larger than the capacity go alone, once nothing is held', async () => {
    const limiter = new Limiter(10);
    const small = limiter.tryAcquire(1)!;
    expect(limiter.tryAcquire(25)).toBeUndefined();
    let big: Release | undefined;
    void limiter.acquire(25).then((release) => (big = release));
    small();
    await flush();
    expect(big).toBeDefined();
    expect(limiter.used).toBe(25);
    expect(limiter.tryAcquire(1)).toBeUndefined();
  });

  it('an aborted waiter leaves the line with the signal’s reason, and those behind it move up', async () => {
    const limiter = new Limiter(10);
    const hold = limiter.tryAcquire(5)!;
    const controller = new AbortController();
    const heavy = limiter.acquire(8, controller.signal);
    let light: Release | undefined;
    void limiter.acquire(5).then((release) => (light = release));
    await flush();
    expect(light).toBeUndefined();
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(heavy).rejects.toBe(reason);
    await flush();
    expect(light).toBeDefined();
    expect(limiter).toMatchObject({ used: 10, waiting: 0 });
    hold();
  });

  it('rejects at once for a signal already aborted, taking nothing', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.acquire(1, AbortSignal.abort(new Error('late')))).rejects.toThrow('late');
    expect(limiter.used).toBe(0);
  });

  it('an abort after the grant changes nothing: the holder keeps it until it releases', async () => {
    const limiter = new Limiter(1);
    const controller = new AbortController();
    const release = await limiter.acquire(1, controller.signal);
    controller.abort();
    expect(limiter.used).toBe(1);
    release();
    expect(limiter.used).toBe(0);
  });

  it('a second release gives back nothing more', () => {
    const limiter = new Limiter(3);
    const a = limiter.tryAcquire(2)!;
    limiter.tryAcquire(1);
    a();
    a();
    expect(limiter.used).toBe(1);
  });

  it('force() counts past the capacity and the line; the line waits until room is back', async () => {
    const limiter = new Limiter(10);
    const forced = limiter.force(15);
    expect(limiter).toMatchObject({ used: 15, peak: 15 });
    let next: Release | undefined;
    void limiter.acquire(2).then((release) => (next = release));
    await flush();
    expect(next).toBeUndefined();
    forced();
    await flush();
    expect(next).toBeDefined();
  });

  it('setCapacity(): raising it serves the line at once, lowering it lets holders finish', async () => {
    const limiter = new Limiter(1);
    const first = limiter.tryAcquire()!;
    const granted: number[] = [];
    for (const n of [1, 2, 3]) void limiter.acquire().then(() => granted.push(n));
    limiter.setCapacity(3);
    await flush();
    expect(granted).toEqual([1, 2]);
    limiter.setCapacity(1);
    first();
    await flush();
    expect(granted).toEqual([1, 2]); // still two held against a capacity of one
    expect(limiter.capacity).toBe(1);
  });

  it('hasRoom() answers as tryAcquire() would, taking nothing', () => {
    const limiter = new Limiter(4);
    expect(limiter.hasRoom(4)).toBe(true);
    limiter.tryAcquire(3);
    expect(limiter.hasRoom(2)).toBe(false);
    expect(limiter.hasRoom(1)).toBe(true);
    expect(limiter.used).toBe(3);
  });

  it('refuses a weight or capacity that means nothing', () => {
    expect(() => new Limiter(0)).toThrow(RangeError);
    const limiter = new Limiter(1);
    expect(() => limiter.tryAcquire(-1)).toThrow(RangeError);
    expect(() => limiter.acquire(Number.NaN)).toThrow(RangeError);
    expect(() => limiter.setCapacity(-2)).toThrow(RangeError);
  });
});

type Step =
  | { kind: 'acquire'; weight: number; abortable: boolean }
  | { kind: 'try'; weight: number }
  | { kind: 'release'; pick: number }
  | { kind: 'abort'; pick: number }
  | { kind: 'capacity'; capacity: number };

// Weighted so that lines form and aborts find someone waiting.
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('acquire' as const), weight: fc.integer({ min: 0, max: 12 }), abortable: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('try' as const), weight: fc.integer({ min: 0, max: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('abort' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('capacity' as const), capacity: fc.integer({ min: 1, max: 12 }) }) },
);

interface Ticket {
  id: number;
  weight: number;
  state: 'waiting' | 'held' | 'released' | 'aborted';
  release?: Release;
  controller?: AbortController;
}

/** Runs the steps, checking after each (once granted callbacks have run) what must always hold. */
async function run(capacity: number, steps: Step[]): Promise<void> {
  const limiter = new Limiter(capacity);
  const tickets: Ticket[] = [];
  const grantOrder: number[] = [];
  let cap = capacity;
  for (const s of steps) {
    if (s.kind === 'acquire') {
      const ticket: Ticket = { id: tickets.length, weight: s.weight, state: 'waiting', controller: s.abortable ? new AbortController() : undefined };
      tickets.push(ticket);
      limiter.acquire(s.weight, ticket.controller?.signal).then(
        (release) => {
          expect(ticket.state).toBe('waiting');
          ticket.state = 'held';
          ticket.release = release;
          grantOrder.push(ticket.id);
        },
        () => {
          expect(ticket.state).toBe('aborted');
        },
      );
    } else if (s.kind === 'try') {
      const couldWait = tickets.some((t) => t.state === 'waiting');
      const before = limiter.used;
      const release = limiter.tryAcquire(s.weight);
      // Refused exactly when someone waits or it does not fit.
      expect(release !== undefined).toBe(!couldWait && (before === 0 || before + s.weight <= cap));
      if (release) tickets.push({ id: tickets.length, weight: s.weight, state: 'held', release });
    } else if (s.kind === 'release') {
      const held = tickets.filter((t) => t.state === 'held');
      const ticket = held[s.pick % Math.max(1, held.length)];
      if (ticket) {
        ticket.release!();
        ticket.state = 'released';
        ticket.release!(); // a second call is harmless
      }
    } else if (s.kind === 'abort') {
      const waiting = tickets.filter((t) => t.state === 'waiting' && t.controller);
      const ticket = waiting[s.pick % Math.max(1, waiting.length)];
      if (ticket) {
        ticket.state = 'aborted';
        ticket.controller!.abort(new Error('aborted'));
      }
    } else {
      cap = s.capacity;
      limiter.setCapacity(cap);
    }
    await flush();
    const held = tickets.filter((t) => t.state === 'held');
    const waiting = tickets.filter((t) => t.state === 'waiting');
    // What is held is exactly what was granted and not given back.
    expect(limiter.used).toBe(held.reduce((sum, t) => sum + t.weight, 0));
    expect(limiter.waiting).toBe(waiting.length);
    // Nobody waits while the first in line would fit: no wake-up is lost.
    if (waiting.length) {
      expect(limiter.used).toBeGreaterThan(0);
      expect(limiter.used + waiting[0]!.weight).toBeGreaterThan(cap);
    }
  }
  // Waiters were served in the order they came.
  expect(grantOrder).toEqual([...grantOrder].sort((a, b) => a - b));
  // Everyone still waiting is served once everything is given back, one after another.
  for (let guard = 0; guard <= tickets.length; guard++) {
    for (const t of tickets) if (t.state === 'held') (t.release!(), (t.state = 'released'));
    await flush();
  }
  expect(tickets.filter((t) => t.state === 'waiting')).toEqual([]);
  expect(limiter.used).toBe(0);
}

describe('Limiter properties', () => {
  it('holds its invariants under any sequence of takes, releases, aborts and capacity changes', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.array(step, { minLength: 4, maxLength: 40, size: 'max' }), run), { numRuns: 300 });
  });

  it('never holds more than the capacity unless one holder alone is over it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 15 }), fc.nat(3)), { maxLength: 30 }), async (capacity, jobs) => {
        const limiter = new Limiter(capacity);
        const holders = new Map<number, number>();
        await Promise.all(
          jobs.map(async ([weight, ticks], id) => {
            const release = await limiter.acquire(weight);
            holders.set(id, weight);
            const sum = [...holders.values()].reduce((a, b) => a + b, 0);
            if (sum > capacity) expect(holders.size).toBe(1);
            expect(limiter.peak).toBeGreaterThanOrEqual(sum);
            for (let i = 0; i < ticks; i++) await flush();
            holders.delete(id);
            release();
          }),
        );
        expect(limiter.used).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('Channel', () => {
  it('hands items out in order, those pushed before reading and while it waits, then ends when closed', async () => {
    const channel = new Channel<number>();
    channel.push(1);
    const read = (async () => {
      const seen: number[] = [];
      for await (const item of channel) seen.push(item);
      return seen;
    })();
    await flush();
    channel.push(2);
    channel.push(3);
    await flush();
    channel.close();
    expect(await read).toEqual([1, 2, 3]);
  });

  it('closed with an error: the items pushed before it are read, then the error is thrown', async () => {
    const channel = new Channel<string>();
    channel.push('a');
    channel.close(new Error('no consent column'));
    const seen: string[] = [];
    await expect((async () => {
      for await (const item of channel) seen.push(item);
    })()).rejects.toThrow('no consent column');
    expect(seen).toEqual(['a']);
  });

  it('a reader that stops early lets go of what is left and of every later push; idle while it waits', async () => {
    const letGo: number[] = [];
    const channel = new Channel<number>((n) => letGo.push(n));
    channel.push(1);
    channel.push(2);
    const it = channel[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ done: false, value: 1 });
    expect(channel.idle).toBe(false);
    await it.return(undefined);
    expect(letGo).toEqual([2]);
    channel.push(3);
    expect(letGo).toEqual([2, 3]);

    const waiting = new Channel<number>();
    const next = waiting[Symbol.asyncIterator]().next();
    await flush();
    expect(waiting.idle).toBe(true);
    waiting.push(4);
    expect(waiting.idle).toBe(false);
    expect(await next).toEqual({ done: false, value: 4 });
  });
});

describe('Limiter.run', () => {
  it('with a capacity of one, runs tasks one after another in the order given; a failing task does not stop the next', async () => {
    const serial = new Limiter(1);
    const log: string[] = [];
    const slow = serial.run(async () => {
      await flush();
      log.push('a');
    });
    const failing = serial.run(async () => {
      log.push('b');
      throw new Error('disk full');
    });
    const last = serial.run(async () => void log.push('c'));
    await slow;
    await expect(failing).rejects.toThrow('disk full');
    await last;
    expect(log).toEqual(['a', 'b', 'c']);
    expect(serial.used).toBe(0);
  });
});
