// Faults on demand: --latency, --fail-rate, --rate-limit and failNext().
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/sandbox/faults.js';
import { withSandbox, type SandboxClient } from '../helpers/sandbox.js';

const READ = '/email/clients/listsforemail?email=ada@example.com';
const clients: SandboxClient[] = [];
async function sandbox(options: Parameters<typeof withSandbox>[0] = {}) {
  const c = await withSandbox(options);
  clients.push(c);
  return c;
}
afterEach(async () => {
  while (clients.length) await clients.pop()!.sandbox.stop();
});

describe('latency', () => {
  it('delays every answer by at least the configured time', async () => {
    const c = await sandbox({ latencyMs: 120 });
    const start = performance.now();
    const answer = await c.call('GET', READ);
    expect(answer.status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(115);
  });
});

describe('fail rate', () => {
  it('answers 500 in the status shape to every request at rate 1', async () => {
    const c = await sandbox({ failRate: 1 });
    for (let i = 0; i < 3; i++) {
      const answer = await c.call('GET', READ);
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ status: 500, message: expect.stringMatching(/retry/i) });
    }
  });

  it('chooses the failing requests repeatably for the same seed', async () => {
    const pattern = async (failSeed: number) => {
      const c = await sandbox({ failRate: 0.5, failSeed });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await c.call('GET', READ)).status);
      return statuses;
    };
    const first = await pattern(7);
    expect(await pattern(7)).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('does not apply a request it fails', async () => {
    const c = await sandbox({ failRate: 1 });
    await c.call('POST', `/email/subscribers/11111111-1111-4111-8111-111111111111`, { EmailAddress: 'f@example.com', Name: 'F', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    expect(c.sandbox.state().lists['11111111-1111-4111-8111-111111111111'].Subscribers['f@example.com']).toBeUndefined();
  });
});

describe('rate limit', () => {
  it('answers 429 beyond the limit, stating the seconds to wait in the message and headers', async () => {
    const c = await sandbox({ rateLimitPerSecond: 3 });
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await c.call('GET', READ));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    const [first] = limited;
    expect(first.body).toEqual({ status: 429, message: expect.stringMatching(/\b1 seconds?\b/) });
    expect(first.headers.get('retry-after')).toBe('1');
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(first.headers.get('x-ratelimit-reset')).toBe('1');
  });

  it('sends the rate-limit headers on accepted requests too', async () => {
    const c = await sandbox({ rateLimitPerSecond: 100 });
    const answer = await c.call('GET', READ);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('100');
    expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeLessThan(100);
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('as a token bucket (burst 4, 4 a second) stating its limit only on the 429: four at once pass bare, the fifth is refused with the headers', async () => {
    const c = await sandbox({ rateLimitPerSecond: 4, rateLimit: { style: 'bucket', burst: 4, headers: 'on-429' } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => c.call('GET', READ)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 429]);
    for (const a of answers.filter((x) => x.status === 200)) expect(a.headers.get('x-ratelimit-limit')).toBeNull();
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get('x-ratelimit-limit')).toBe('4');
    expect(refused.headers.get('x-ratelimit-reset')).toBe('1');
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('refills the token bucket at the rate: one request more every 250 ms at 4 a second', () => {
    const bucket = new RateLimiter({ perSecond: 4, style: 'bucket', burst: 4 });
    const at = (ms: number) => bucket.check(ms).limited;
    expect([at(0), at(0), at(0), at(0), at(0)]).toEqual([false, false, false, false, true]);
    expect([at(250), at(260)]).toEqual([false, true]);
    expect([at(2000), at(2000), at(2000), at(2000), at(2000)]).toEqual([false, false, false, false, true]);
  });

  it('does not count the rate limit without --rate-limit', async () => {
    const c = await sandbox();
    const answer = await c.call('GET', READ);
    expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('failNext', () => {
  it('fails only the matching method and path, the given number of times', async () => {
    const c = await sandbox();
    c.sandbox.failNext({ method: 'POST', path: /\/import$/, status: 503, times: 2 });
    expect((await c.call('GET', READ)).status).toBe(200);
    const list = '/email/subscribers/11111111-1111-4111-8111-111111111111/import';
    const body = { Subscribers: [{ EmailAddress: 'x@example.com', Name: 'X', CustomFields: [], ConsentToTrack: 'Yes' }], Resubscribe: false, QueueSubscriptionBasedAutoResponders: false };
    expect((await c.call('POST', list, body)).status).toBe(503);
    expect((await c.call('POST', list, body)).status).toBe(503);
    expect((await c.call('POST', list, body)).status).toBe(200);
  });

  it('answers a 429 with the requested wait in message, Retry-After and X-RateLimit-Reset', async () => {
    const c = await sandbox();
    c.sandbox.failNext({ status: 429, retryAfterSeconds: 3 });
    const answer = await c.call('GET', READ);
    expect(answer.status).toBe(429);
    expect(answer.body.message).toMatch(/3 seconds/);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.headers.get('x-ratelimit-reset')).toBe('3');
  });

  it('uses a given message', async () => {
    const c = await sandbox();
    c.sandbox.failNext({ status: 500, message: 'database on fire' });
    expect((await c.call('GET', READ)).body).toEqual({ status: 500, message: 'database on fire' });
  });

  it('drops the connection without an answer', async () => {
    const c = await sandbox();
    c.sandbox.failNext({ drop: true });
    await expect(c.call('GET', READ)).rejects.toThrow();
    expect((await c.call('GET', READ)).status).toBe(200);
  });

  it('checks the fault before the key, like a failing front end', async () => {
    const c = await sandbox();
    c.sandbox.failNext({ status: 500 });
    expect((await c.call('GET', READ, undefined, { key: 'wrong' })).status).toBe(500);
  });
});
