// Faults on demand: --latency, --fail-rate, --rate-limit, and failNext() for
// tests. Kept apart from the server so each rule is small and testable.

export interface FaultSpec {
  method?: string;
  path?: RegExp;
  status?: 429 | 500 | 503;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
  /** How many matching requests get this fault (default 1). */
  times?: number;
  /** For 429: seconds to wait, stated in the message and headers (default 1). */
  retryAfterSeconds?: number;
  message?: string;
}

type FaultDecision =
  | { kind: 'drop' }
  | { kind: 'respond'; status: number; message: string; headers: Record<string, string> };

/** One-shot faults queued by tests; the first queued fault that matches is used. */
export class FaultQueue {
  private readonly queue: { spec: FaultSpec; remaining: number }[] = [];

  add(spec: FaultSpec): void {
    this.queue.push({ spec, remaining: spec.times ?? 1 });
  }

  clear(): void {
    this.queue.length = 0;
  }

  take(method: string, path: string): FaultDecision | undefined {
    const index = this.queue.findIndex(
      ({ spec }) => (!spec.method || spec.method.toUpperCase() === method) && (!spec.path || spec.path.test(path)),
    );
    if (index < 0) return undefined;
    const entry = this.queue[index];
    entry.remaining--;
    if (entry.remaining <= 0) this.queue.splice(index, 1);
    const { spec } = entry;
    if (spec.drop) return { kind: 'drop' };
    const status = spec.status ?? 500;
    if (status === 429) {
      const seconds = spec.retryAfterSeconds ?? 1;
      return {
        kind: 'respond',
        status,
        message: spec.message ?? rateLimitMessage(seconds),
        headers: rateLimitHeaders(0, 0, seconds, true),
      };
    }
    return {
      kind: 'respond',
      status,
      message: spec.message ?? (status === 503 ? 'Service unavailable; retry later.' : 'Internal error; retry later.'),
      headers: {},
    };
  }
}

/** service-spec.md "Errors": a 429 message states the number of seconds until a retry is possible. */
export function rateLimitMessage(seconds: number): string {
  return `API call limit exceeded. Retry in ${seconds} seconds.`;
}

/**
 * X-RateLimit-Reset is the number of seconds until the window resets (a delta,
 * not an epoch time), equal to Retry-After on a 429.
 */
function rateLimitHeaders(limit: number, remaining: number, resetSeconds: number, limited: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(resetSeconds),
  };
  if (limited) headers['Retry-After'] = String(resetSeconds);
  return headers;
}

/** Fixed one-second windows: at most `limitPerSecond` requests in each. */
export class RateLimiter {
  private windowStart = 0;
  private used = 0;

  constructor(private readonly limitPerSecond: number) {}

  /** Counts one request at `nowMs`; returns the headers to add and whether it is refused. */
  check(nowMs: number): { limited: boolean; headers: Record<string, string>; retryAfterSeconds: number } {
    if (nowMs - this.windowStart >= 1000) {
      this.windowStart = nowMs - (nowMs % 1000);
      this.used = 0;
    }
    const resetSeconds = Math.max(1, Math.ceil((this.windowStart + 1000 - nowMs) / 1000));
    if (this.used >= this.limitPerSecond) {
      return { limited: true, retryAfterSeconds: resetSeconds, headers: rateLimitHeaders(this.limitPerSecond, 0, resetSeconds, true) };
    }
    this.used++;
    return {
      limited: false,
      retryAfterSeconds: 0,
      headers: rateLimitHeaders(this.limitPerSecond, this.limitPerSecond - this.used, resetSeconds, false),
    };
  }
}

/** Deterministic PRNG (mulberry32) so --fail-rate runs are repeatable with the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
