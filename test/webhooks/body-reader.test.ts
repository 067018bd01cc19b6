// The body reader and the budget all senders share (src/webhooks/body-reader.ts),
// on streams the test feeds by hand so every pause and resume is seen; the
// receiver's tests cover the same over the wire.
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBody, ReadingBudget, type ReadBody, type ReadResult } from '../../src/webhooks/body-reader.js';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A request body the test writes chunk by chunk. */
function request(): PassThrough & IncomingMessage {
  return new PassThrough() as PassThrough & IncomingMessage;
}

function start(req: IncomingMessage, budget: ReadingBudget, maxBytes = 1000) {
  const outcome: { result?: ReadResult; error?: unknown } = {};
  readBody(req, maxBytes, 5_000, budget).then(
    (result) => (outcome.result = result),
    (error: unknown) => (outcome.error = error),
  );
  return outcome;
}

const bytes = (n: number, fill = 'x') => Buffer.alloc(n, fill);

describe('readBody under a shared budget', () => {
  it('pauses a body that would cross the budget, and the oldest body goes on whatever the room', async () => {
    const budget = new ReadingBudget(10);
    const a = request();
    const b = request();
    const readA = start(a, budget);
    const readB = start(b, budget);
    a.write(bytes(8, 'a'));
    await flush();
    b.write(bytes(5, 'b'));
    await flush();
    expect(budget.buffered).toBe(8); // b waits, unread
    expect(b.isPaused()).toBe(true);
    a.write(bytes(8, 'a'));
    await flush();
    expect(budget.buffered).toBe(16); // the oldest body is never held back
    a.end();
    await flush();
    // a is whole (its bytes held until parsed); b is now the oldest and goes on.
    expect(budget.buffered).toBe(21);
    b.end(bytes(1, 'b'));
    await flush();
    expect((readA.result as ReadBody).body.toString()).toBe('a'.repeat(16));
    expect((readB.result as ReadBody).body.toString()).toBe('bbbbbb');
    (readA.result as ReadBody).release();
    (readB.result as ReadBody).release();
    expect(budget.buffered).toBe(0);
    expect(budget.reading).toBe(0);
  });

  it('resumes paused bodies in the order they paused as bytes are given back', async () => {
    const budget = new ReadingBudget(10);
    const [a, b, c] = [request(), request(), request()];
    const readA = start(a, budget);
    start(b, budget);
    start(c, budget);
    a.end(bytes(10, 'a'));
    await flush();
    c.write(bytes(4, 'c'));
    await flush();
    b.write(bytes(4, 'b'));
    await flush();
    // b became the oldest when a ended: it went on; c waits for room.
    expect(budget.buffered).toBe(14);
    expect(c.isPaused()).toBe(true);
    (readA.result as ReadBody).release();
    await flush();
    expect(budget.buffered).toBe(8);
    expect(c.isPaused()).toBe(false);
  });

  it('gives back every byte of a body that grows too large, or whose sender goes away while it waits', async () => {
    const budget = new ReadingBudget(10);
    const [a, b] = [request(), request()];
    const readA = start(a, budget, 12);
    const readB = start(b, budget);
    a.write(bytes(8));
    await flush();
    b.write(bytes(5));
    await flush();
    b.destroy();
    await flush();
    expect(readB.error).toBeInstanceOf(Error);
    a.write(bytes(8));
    await flush();
    expect(readA.result).toBe('too large');
    expect(budget.buffered).toBe(0);
    expect(budget.reading).toBe(0);
  });
});
