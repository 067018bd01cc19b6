// A request as small functions around one send, as octokit's plugins are: retry (retry.ts),
// throttle (throttle.ts, CLI.md "flow control"), judge (a non-2xx becomes its typed error),
// send (http.ts). Each is read and tested alone; below retry an attempt is a value, so nothing
// is shared between layers.
import { NetworkError, RateLimitError, TimeoutError } from './errors.js';
import { decideRetry, type Failure, type RetryPolicy, type RetryState } from './retry.js';
import type { Throttle } from './throttle.js';

export type Headers = Record<string, string | string[] | undefined>;

export interface Answer {
  status: number;
  headers: Headers;
}

export interface LayerRequest {
  method: string;
  /** As given, without base path or query: what messages name. */
  path: string;
  idempotent: boolean;
  signal?: AbortSignal;
  onRetry?: (reason: string, delayMs: number) => void;
}

/**
 * No `failure`: final whatever the policy (a redirect). `endTurn`: the throttle's turn left
 * open after a failed status, for the retry layer to end with the shared pause it decides.
 */
export type Attempt<A extends Answer> =
  | { ok: true; answer: A }
  | { ok: false; error: Error; failure?: Failure; endTurn?: (pauseMs?: number) => void };

export type Try<A extends Answer, R extends LayerRequest = LayerRequest> = (request: R, tries: RetryState) => Promise<Attempt<A>>;

export const FIRST_TRY: RetryState = Object.freeze({ retries: 0, rateLimitRetries: 0, waitedMs: 0 });

/** A network failure or timeout is weighed; anything else (an abort, an oversized answer) is final. */
export function sendAttempt<A extends Answer, R extends LayerRequest>(send: (request: R) => Promise<A>): Try<A, R> {
  return async (request) => {
    try {
      return { ok: true, answer: await send(request) };
    } catch (err) {
      if (!(err instanceof NetworkError)) throw err;
      const failure: Failure = err instanceof TimeoutError ? { kind: 'timeout', message: err.message } : { kind: 'network', message: err.message, notSent: err.neverSent };
      return { ok: false, error: err, failure };
    }
  };
}

export function judgeLayer<A extends Answer, R extends LayerRequest>(toError: (answer: A, request: R) => Error): (next: Try<A, R>) => Try<A, R> {
  return (next) => async (request, tries) => {
    const attempt = await next(request, tries);
    if (!attempt.ok || attempt.answer.status < 300) return attempt;
    const { status, headers } = attempt.answer;
    const error = toError(attempt.answer, request);
    // A redirect is judged but is no failure to retry or to slow down for.
    if (status < 400) return { ok: false, error };
    return { ok: false, error, failure: { kind: 'status', status, headers, message: error.message } };
  };
}

export function throttleLayer<A extends Answer, R extends LayerRequest>(signalOf: (request: R) => AbortSignal | undefined, throttleOf: () => Throttle | undefined): (next: Try<A, R>) => Try<A, R> {
  return (next) => async (request, tries) => {
    const throttle = throttleOf();
    if (!throttle) return next(request, tries);
    const ticket = await throttle.acquire({ retry: tries.retries + tries.rateLimitRetries > 0, signal: signalOf(request) });
    let attempt: Attempt<A>;
    try {
      attempt = await next(request, tries);
    } catch (err) {
      throttle.done(ticket);
      throw err;
    }
    if (attempt.ok) throttle.done(ticket, attempt.answer);
    else if (attempt.failure?.kind === 'status') {
      const answer = { status: attempt.failure.status, headers: attempt.failure.headers };
      return { ...attempt, endTurn: (pauseMs) => throttle.done(ticket, answer, pauseMs) };
    } else throttle.done(ticket);
    return attempt;
  };
}

export interface RetryDeps<R extends LayerRequest = LayerRequest> {
  policy: RetryPolicy;
  now: () => number;
  debug: (line: string) => void;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signalOf: (request: R) => AbortSignal | undefined;
  onWait?: (request: R, failure: Failure, delayMs: number) => void;
}

/** CLI.md "retries"; the decision is retry.ts's. */
export function retryLayer<A extends Answer, R extends LayerRequest>(deps: RetryDeps<R>): (next: Try<A, R>) => (request: R) => Promise<A> {
  return (next) => async (request) => {
    let tries = FIRST_TRY;
    for (;;) {
      const attempt = await next(request, tries);
      if (attempt.ok) return attempt.answer;
      const { failure } = attempt;
      if (!failure) throw attempt.error;
      const decision = decideRetry(failure, request.idempotent, tries, deps.policy, deps.now());
      deps.debug(`  ${decision.reason}`);
      const rateLimited = failure.kind === 'status' && failure.status === 429;
      // One shared pause for the walk. None when this request gives up: the others then meet their own
      // 429 and give up too, rather than sit out a wait nobody retries after.
      attempt.endTurn?.(rateLimited ? (decision.retry ? decision.delayMs : 0) : undefined);
      if (!decision.retry) {
        if (decision.capExceeded && rateLimited) {
          throw new RateLimitError({
            status: 429,
            method: request.method,
            path: request.path,
            message: `rate limited: the service asks to wait ${Math.ceil(decision.capExceeded.wantedMs / 1000)}s, more than the retry cap allows`,
            retryAfterMs: decision.capExceeded.wantedMs,
          });
        }
        throw attempt.error;
      }
      request.onRetry?.(decision.reason, decision.delayMs);
      deps.onWait?.(request, failure, decision.delayMs);
      tries = {
        retries: tries.retries + (rateLimited ? 0 : 1),
        rateLimitRetries: tries.rateLimitRetries + (rateLimited ? 1 : 0),
        waitedMs: tries.waitedMs + decision.delayMs,
      };
      // Under a throttle (its turn left open) the retry of a 429 waits in acquire(), on the shared pause.
      if (!(rateLimited && attempt.endTurn)) await deps.sleep(decision.delayMs, deps.signalOf(request));
    }
  };
}

export const ANNOUNCED_WAIT_MS = 5_000;

/** A long pause is never silent (CLI.md "retries"); requests waiting out one pause say so once. */
export function announcer(announce: (line: string, waitMs: number) => void, now: () => number): (request: LayerRequest, failure: Failure, delayMs: number) => void {
  let announcedUntilMs = 0;
  return ({ method, path }, failure, delayMs) => {
    if (delayMs < ANNOUNCED_WAIT_MS) return;
    const at = now();
    if (at + delayMs <= announcedUntilMs + 1000) return;
    announcedUntilMs = at + delayMs;
    const seconds = Math.ceil(delayMs / 1000);
    let line: string;
    if (failure.kind === 'status' && failure.status === 429) line = `waiting ${seconds} s: the service asked us to slow down (HTTP 429 on ${method} ${path})`;
    else if (failure.kind === 'status') line = `waiting ${seconds} s before trying ${method} ${path} again (HTTP ${failure.status})`;
    else line = `waiting ${seconds} s before trying again: ${failure.message}`;
    announce(line, delayMs);
  };
}
