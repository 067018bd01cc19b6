// The layers of a request (src/core/request-layers.ts), each alone around a
// scripted send: what judge makes of an answer, when retry tries again, the
// pause a throttled 429 shares, and when a wait is announced. Below retry an
// attempt is a value, so each layer is tested by what it returns.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/core/errors.js';
import { announcer, FIRST_TRY, judgeLayer, retryLayer, sendAttempt, throttleLayer, type Answer, type LayerRequest, type Try } from '../../src/core/request-layers.js';
import type { Failure } from '../../src/core/retry.js';
import { defaultRetryPolicy } from '../../src/core/retry.js';
import type { Throttle } from '../../src/core/throttle.js';

const opts = (more: Partial<LayerRequest> = {}): LayerRequest => ({ method: 'GET', path: '/x', idempotent: true, ...more });
const ok: Answer = { status: 200, headers: {} };
const tooMany: Answer = { status: 429, headers: { 'retry-after': '7' } };

/** A send that answers (or throws) the scripted items in turn, as an attempt, counting its calls. */
function scripted(...items: (Answer | Error)[]): Try<Answer> & { calls: number } {
  let calls = 0;
  const send = sendAttempt<Answer, LayerRequest>(async () => {
    calls++;
    const item = items.shift() ?? ok;
    if (item instanceof Error) throw item;
    return item;
  });
  return Object.defineProperty(send, 'calls', { get: () => calls }) as Try<Answer> & { calls: number };
}

const toError = (a: Answer) => new ApiError({ status: a.status, message: `HTTP ${a.status}`, method: 'GET', path: '/x' });
const judge = judgeLayer<Answer, LayerRequest>(toError);

function retrying(slept: number[], onWait?: (request: LayerRequest, failure: Failure, delayMs: number) => void) {
  return retryLayer<Answer, LayerRequest>({
    policy: { ...defaultRetryPolicy, baseDelayMs: 1, random: () => 0 },
    now: () => 0,
    debug: () => undefined,
    sleep: async (ms) => void slept.push(ms),
    signalOf: () => undefined,
    onWait,
  });
}

describe('judge', () => {
  it('passes a 2xx, and makes an error status its error with the failure the layers above weigh', async () => {
    expect(await judge(scripted(ok))(opts(), FIRST_TRY)).toEqual({ ok: true, answer: ok });
    const failed = await judge(scripted({ status: 404, headers: { a: 'b' } }))(opts(), FIRST_TRY);
    expect(failed).toMatchObject({ ok: false, error: { message: 'HTTP 404' }, failure: { kind: 'status', status: 404, headers: { a: 'b' }, message: 'HTTP 404' } });
  });

  it('makes a redirect an error with no failure: nothing to retry or slow down for', async () => {
    const judged = await judge(scripted({ status: 302, headers: {} }))(opts(), FIRST_TRY);
    expect(judged.ok).toBe(false);
    expect(judged).not.toHaveProperty('failure');
  });
});

describe('retry', () => {
  it('tries a read again after a dropped connection, never a send', async () => {
    const slept: number[] = [];
    const read = scripted(new NetworkError('reset', 'GET', '/x'), ok);
    expect(await retrying(slept)(judge(read))(opts())).toBe(ok);
    expect(read.calls).toBe(2);
    const send = scripted(new NetworkError('reset', 'POST', '/x'), ok);
    await expect(retrying(slept)(judge(send))(opts({ method: 'POST', idempotent: false }))).rejects.toThrow('reset');
    expect(send.calls).toBe(1);
  });

  it('hands each attempt how many came before it', async () => {
    const seen: unknown[] = [];
    const inner = judge(scripted({ status: 503, headers: {} }, tooMany, ok));
    await retrying([])((request, tries) => {
      seen.push(tries);
      return inner(request, tries);
    })(opts());
    expect(seen).toEqual([FIRST_TRY, { retries: 1, rateLimitRetries: 0, waitedMs: 1 }, { retries: 1, rateLimitRetries: 1, waitedMs: 7001 }]);
  });

  it('waits out a 429 itself, but under a throttle leaves the wait to the shared pause', async () => {
    const slept: number[] = [];
    await retrying(slept)(judge(scripted(tooMany, ok)))(opts());
    expect(slept).toEqual([7000]);
    const released: (number | undefined)[] = [];
    const acquired: boolean[] = [];
    const throttle = {
      acquire: async ({ retry }: { retry: boolean }) => void acquired.push(retry),
      done: (_ticket: unknown, _answer?: Answer, pauseMs?: number) => void released.push(pauseMs),
    } as unknown as Throttle;
    slept.length = 0;
    const send = retrying(slept)(throttleLayer<Answer, LayerRequest>(() => undefined, () => throttle)(judge(scripted(tooMany, ok))));
    expect(await send(opts())).toBe(ok);
    expect(slept).toEqual([]);
    // The 429's turn ends with the pause every request of the walk then waits out; the retry's turn with none.
    expect(released).toEqual([7000, undefined]);
    expect(acquired).toEqual([false, true]);
  });
});

describe('announce', () => {
  it('says a wait of 5 s or more once for requests that wait together, and nothing for a short one', async () => {
    const lines: string[] = [];
    const announce = announcer((line) => lines.push(line), () => 0);
    const slept: number[] = [];
    await Promise.all([1, 2].map(() => retrying(slept, announce)(judge(scripted(tooMany, ok)))(opts())));
    expect(lines).toEqual(['waiting 7 s: the service asked us to slow down (HTTP 429 on GET /x)']);
    await retrying(slept, announce)(judge(scripted({ status: 503, headers: {} }, ok)))(opts());
    expect(lines).toHaveLength(1);
  });
});
