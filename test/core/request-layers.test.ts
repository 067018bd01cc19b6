// The layers of a request (src/core/request-layers.ts), each alone around a
// scripted send: what judge makes of an answer, when retry tries again, the
// pause a throttled 429 shares, and when a wait is announced.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/core/errors.js';
import { announceLayer, judgeLayer, layered, newExchange, retryLayer, throttleLayer, type Answer, type ExchangeOptions, type Send } from '../../src/core/request-layers.js';
import { defaultRetryPolicy } from '../../src/core/retry.js';
import type { Throttle } from '../../src/core/throttle.js';

const opts = (more: Partial<ExchangeOptions> = {}): ExchangeOptions => ({ method: 'GET', path: '/x', idempotent: true, ...more });
const ok: Answer = { status: 200, headers: {} };
const tooMany: Answer = { status: 429, headers: { 'retry-after': '7' } };

/** A send that answers (or throws) the scripted items in turn, counting its calls. */
function scripted(...items: (Answer | Error)[]): Send<Answer> & { calls: number } {
  const send = (async () => {
    send.calls++;
    const item = items.shift() ?? ok;
    if (item instanceof Error) throw item;
    return item;
  }) as unknown as Send<Answer> & { calls: number };
  send.calls = 0;
  return send;
}

const toError = (a: Answer) => new ApiError({ status: a.status, message: `HTTP ${a.status}`, method: 'GET', path: '/x' });
const judge = judgeLayer<Answer, ExchangeOptions>(toError);

function retrying(slept: number[]) {
  return retryLayer<Answer, ExchangeOptions>({
    policy: { ...defaultRetryPolicy, baseDelayMs: 1, random: () => 0 },
    now: () => 0,
    debug: () => undefined,
    sleep: async (ms) => void slept.push(ms),
    signalOf: () => undefined,
  });
}

describe('judge', () => {
  it('passes a 2xx, and makes an error status its error with the answer kept for the layers above', async () => {
    expect(await judge(scripted(ok))(newExchange(opts()))).toBe(ok);
    const x = newExchange(opts());
    await expect(judge(scripted({ status: 404, headers: {} }))(x)).rejects.toThrow('HTTP 404');
    expect(x.failed).toEqual({ status: 404, headers: {} });
  });
});

describe('retry', () => {
  it('tries a read again after a dropped connection, never a send', async () => {
    const slept: number[] = [];
    const read = scripted(new NetworkError('reset', 'GET', '/x'), ok);
    expect(await layered([retrying(slept), judge], read)(newExchange(opts()))).toBe(ok);
    expect(read.calls).toBe(2);
    const send = scripted(new NetworkError('reset', 'POST', '/x'), ok);
    await expect(layered([retrying(slept), judge], send)(newExchange(opts({ method: 'POST', idempotent: false })))).rejects.toThrow('reset');
    expect(send.calls).toBe(1);
  });

  it('waits out a 429 itself, but under a throttle leaves the wait to the shared pause', async () => {
    const slept: number[] = [];
    await layered([retrying(slept), judge], scripted(tooMany, ok))(newExchange(opts()));
    expect(slept).toEqual([7000]);
    const released: (number | undefined)[] = [];
    const throttle = {
      acquire: async () => ({}),
      done: (_ticket: unknown, _answer?: Answer, pauseMs?: number) => void released.push(pauseMs),
    } as unknown as Throttle;
    slept.length = 0;
    const send = layered([retrying(slept), throttleLayer<Answer, ExchangeOptions>(() => undefined), judge], scripted(tooMany, ok));
    expect(await send(newExchange(opts({ throttle })))).toBe(ok);
    expect(slept).toEqual([]);
    // The 429's turn ends with the pause every request of the walk then waits out; the retry's turn with none.
    expect(released).toEqual([7000, undefined]);
  });
});

describe('announce', () => {
  it('says a wait of 5 s or more once for requests that wait together, and nothing for a short one', async () => {
    const lines: string[] = [];
    const shared = { announcedUntilMs: 0 };
    const announce = announceLayer<Answer, ExchangeOptions>((line) => lines.push(line), () => 0, shared);
    const slept: number[] = [];
    await Promise.all([1, 2].map(() => layered([announce, retrying(slept), judge], scripted(tooMany, ok))(newExchange(opts()))));
    expect(lines).toEqual(['waiting 7 s: the service asked us to slow down (HTTP 429 on GET /x)']);
    await layered([announce, retrying(slept), judge], scripted({ status: 503, headers: {} }, ok))(newExchange(opts()));
    expect(lines).toHaveLength(1);
  });
});
