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

/** How the sandbox counts requests against --rate-limit, and when it says so in headers. */
export interface RateLimitOptions {
  perSecond: number;
  /**
   * 'window' (the default): fixed one-second windows of `perSecond` requests.
   * 'bucket': a token bucket holding `burst` tokens, refilled at `perSecond`
   * a second, as many services and gateways limit.
   */
  style?: 'window' | 'bucket';
  /** Tokens the bucket holds (style 'bucket'; default perSecond). */
  burst?: number;
  /** 'always' (the default): X-RateLimit-* on every answer; 'on-429': only a refusal carries them, as some services do. */
  headers?: 'always' | 'on-429';
}

export interface RateVerdict {
  limited: boolean;
  /** Headers to add to the answer (none on a success under 'on-429'). */
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

/** Counts each request against the limit and says whether it is refused. */
export class RateLimiter {
  private windowStart = 0;
  private used = 0;
  private tokens: number;
  private filledAt: number | undefined;
  private readonly limitPerSecond: number;
  private readonly style: 'window' | 'bucket';
  private readonly burst: number;
  private readonly quiet: boolean;

  constructor(limit: number | RateLimitOptions) {
    const options = typeof limit === 'number' ? { perSecond: limit } : limit;
    this.limitPerSecond = options.perSecond;
    this.style = options.style ?? 'window';
    this.burst = Math.max(1, options.burst ?? options.perSecond);
    this.quiet = options.headers === 'on-429';
    this.tokens = this.burst;
  }

  /** Counts one request at `nowMs`; returns the headers to add and whether it is refused. */
  check(nowMs: number): RateVerdict {
    const verdict = this.style === 'bucket' ? this.checkBucket(nowMs) : this.checkWindow(nowMs);
    if (this.quiet && !verdict.limited) verdict.headers = {};
    return verdict;
  }

  private checkWindow(nowMs: number): RateVerdict {
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

  /**
   * The headers speak of a one-second window of `perSecond` requests (the
   * rate the bucket refills at); Reset and Retry-After are the whole seconds
   * until the next token.
   */
  private checkBucket(nowMs: number): RateVerdict {
    if (this.filledAt !== undefined) this.tokens = Math.min(this.burst, this.tokens + ((nowMs - this.filledAt) * this.limitPerSecond) / 1000);
    this.filledAt = nowMs;
    if (this.tokens < 1) {
      const resetSeconds = Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.limitPerSecond / 1000));
      return { limited: true, retryAfterSeconds: resetSeconds, headers: rateLimitHeaders(this.limitPerSecond, 0, resetSeconds, true) };
    }
    this.tokens -= 1;
    return { limited: false, retryAfterSeconds: 0, headers: rateLimitHeaders(this.limitPerSecond, Math.floor(this.tokens), 1, false) };
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
