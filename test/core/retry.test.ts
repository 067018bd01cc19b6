import { describe, expect, it } from 'vitest';
import { decideRetry, defaultRetryPolicy, rateLimitWaitMs } from '../../src/core/retry.js';

const policy = { ...defaultRetryPolicy, random: () => 0.5 };
const fresh = { retries: 0, rateLimitRetries: 0, waitedMs: 0 };

describe('rateLimitWaitMs', () => {
  it('reads seconds from the message first', () => {
    expect(rateLimitWaitMs({ 'retry-after': '99' }, 'API call limit exceeded, try again in 12 seconds', 0)).toEqual({ ms: 12_000, source: 'the message' });
  });
  it('reads X-RateLimit-Reset as seconds or as an epoch time', () => {
    expect(rateLimitWaitMs({ 'x-ratelimit-reset': '7' }, 'limit', 0)?.ms).toBe(7000);
    expect(rateLimitWaitMs({ 'x-ratelimit-reset': '1700000010' }, undefined, 1_700_000_000_000)?.ms).toBe(10_000);
  });
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(rateLimitWaitMs({ 'retry-after': '3' }, undefined, 0)?.ms).toBe(3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(rateLimitWaitMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, undefined, now)?.ms).toBe(5000);
  });
  it('gives nothing when nothing is said', () => {
    expect(rateLimitWaitMs({}, 'slow down', 0)).toBeUndefined();
  });
});

describe('decideRetry', () => {
  const status = (s: number, message?: string) => ({ kind: 'status' as const, status: s, headers: {}, message });
  it('never retries 400, 401, 403, 404', () => {
    for (const s of [400, 401, 403, 404]) expect(decideRetry(status(s), true, fresh, policy, 0).retry).toBe(false);
  });
  it('retries 429 on any operation', () => {
    expect(decideRetry(status(429, 'wait 2 seconds'), false, fresh, policy, 0)).toMatchObject({ retry: true, delayMs: 2000 });
  });
  it('retries 5xx only when safe to repeat', () => {
    expect(decideRetry(status(500), true, fresh, policy, 0).retry).toBe(true);
    expect(decideRetry(status(500), false, fresh, policy, 0).retry).toBe(false);
  });
  it('backs off exponentially with jitter', () => {
    const a = decideRetry(status(503), true, { ...fresh, retries: 0 }, policy, 0);
    const b = decideRetry(status(503), true, { ...fresh, retries: 2 }, policy, 0);
    expect(a.retry && b.retry && b.delayMs / a.delayMs).toBe(4);
  });
  it('refuses to exceed the total wait cap', () => {
    const d = decideRetry(status(429, 'wait 400 seconds'), true, fresh, policy, 0);
    expect(d).toMatchObject({ retry: false, capExceeded: { wantedMs: 400_000 } });
  });
});
