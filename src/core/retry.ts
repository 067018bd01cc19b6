// The retry policy, written once (CLI.md "retries"); each decision carries a reason for --debug.

export interface RetryPolicy {
  /** Safe operations only. */
  maxRetries: number;
  /** Any operation: a 429 means the request was refused, not performed. */
  maxRateLimitRetries: number;
  maxTotalWaitMs: number;
  /** Doubles each attempt; injectable so tests run fast. */
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 3,
  maxRateLimitRetries: 8,
  maxTotalWaitMs: 5 * 60_000,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  random: Math.random,
};

export type Failure =
  | { kind: 'status'; status: number; headers: Record<string, string | string[] | undefined>; message?: string }
  | { kind: 'network'; message: string; /** true when the request certainly never reached the service */ notSent: boolean }
  | { kind: 'timeout'; message: string };

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; reason: string; capExceeded?: { wantedMs: number } };

export interface RetryState {
  retries: number;
  rateLimitRetries: number;
  waitedMs: number;
}

/** Between half and all of the exponential step, so concurrent clients spread out. */
function backoffMs(policy: RetryPolicy, attempt: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + (policy.random() * step) / 2);
}

/** In CLI.md's order: seconds stated in the message (service-spec.md "Errors"), X-RateLimit-Reset, Retry-After. */
export function rateLimitWaitMs(
  headers: Record<string, string | string[] | undefined>,
  message: string | undefined,
  nowMs: number,
): { ms: number; source: string } | undefined {
  if (message) {
    const m = /(\d+(?:\.\d+)?)\s*(?:seconds?|secs?|s)\b/i.exec(message);
    if (m) return { ms: Math.ceil(Number(m[1]) * 1000), source: 'the message' };
  }
  const reset = header(headers, 'x-ratelimit-reset');
  if (reset !== undefined && /^\d+(\.\d+)?$/.test(reset.trim())) {
    const n = Number(reset);
    // Services send either seconds-until-reset or an epoch time in seconds.
    const ms = n > 1_000_000_000 ? n * 1000 - nowMs : n * 1000;
    return { ms: Math.max(0, Math.ceil(ms)), source: 'X-RateLimit-Reset' };
  }
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const trimmed = retryAfter.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return { ms: Math.ceil(Number(trimmed) * 1000), source: 'Retry-After' };
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return { ms: Math.max(0, date - nowMs), source: 'Retry-After' };
  }
  return undefined;
}

export function decideRetry(
  failure: Failure,
  idempotent: boolean,
  state: RetryState,
  policy: RetryPolicy,
  nowMs: number,
): RetryDecision {
  const capCheck = (delayMs: number, reason: string): RetryDecision => {
    if (state.waitedMs + delayMs > policy.maxTotalWaitMs) {
      return {
        retry: false,
        reason: `not retrying: waiting ${(delayMs / 1000).toFixed(1)}s more would exceed the ${Math.round(policy.maxTotalWaitMs / 1000)}s retry cap`,
        capExceeded: { wantedMs: delayMs },
      };
    }
    return { retry: true, delayMs, reason };
  };

  if (failure.kind === 'status' && failure.status === 429) {
    if (state.rateLimitRetries >= policy.maxRateLimitRetries) {
      return { retry: false, reason: `not retrying: still rate limited after ${state.rateLimitRetries} waits` };
    }
    const told = rateLimitWaitMs(failure.headers, failure.message, nowMs);
    if (told) return capCheck(told.ms, `429: waiting ${(told.ms / 1000).toFixed(1)}s as ${told.source} says`);
    const delay = backoffMs(policy, state.rateLimitRetries);
    return capCheck(delay, `429 without a stated wait: backing off ${(delay / 1000).toFixed(1)}s`);
  }

  const what =
    failure.kind === 'status' ? `${failure.status}` : failure.kind === 'timeout' ? 'timeout' : failure.message;
  const retryable =
    (failure.kind === 'status' && failure.status >= 500) || failure.kind === 'network' || failure.kind === 'timeout';
  if (!retryable) return { retry: false, reason: `not retrying: ${what} is final` };
  // A connection that was never made sent nothing, so even a send may be tried again.
  const safe = idempotent || (failure.kind === 'network' && failure.notSent);
  if (!safe) return { retry: false, reason: `not retrying: ${what} on an operation that is not safe to repeat` };
  if (state.retries >= policy.maxRetries) {
    return { retry: false, reason: `not retrying: ${what} after ${state.retries} retries` };
  }
  const delay = backoffMs(policy, state.retries);
  return capCheck(delay, `${what}: retry ${state.retries + 1}/${policy.maxRetries} in ${(delay / 1000).toFixed(1)}s`);
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
