// A request as small functions around one send, in the manner of octokit's
// plugins (plugin-retry, plugin-throttling): each does one thing, so the
// policy of each is read in one place and tested alone.
//
//   retry      decides, after a failed attempt, whether and when to try again (core/retry.ts);
//              told waits go to announce: one of 5 s or more gets one line (CLI.md "retries")
//   throttle   the client's flow control: each attempt waits its turn; a 429 sets one
//              pause shared by every request in flight (CLI.md "flow control", core/throttle.ts)
//   judge      an answer that is not 2xx becomes its typed error (a 3xx never followed)
//   send       one HTTP exchange (src/core/http.ts ApiClient.once)
//
// Below retry, an attempt is a value (Attempt): the answer, or the error with
// what the layers above need of it. Nothing is shared or written between the
// layers; the retry count is handed down with each attempt.
import { NetworkError, RateLimitError, TimeoutError } from './errors.js';
import { decideRetry, type Failure, type RetryPolicy, type RetryState } from './retry.js';
import type { Throttle } from './throttle.js';

export type Headers = Record<string, string | string[] | undefined>;

export interface Answer {
  status: number;
  headers: Headers;
}

/** What the layers know of a request. */
export interface LayerRequest {
  method: string;
  /** The path as given (without the base path and query): what messages name. */
  path: string;
  idempotent: boolean;
  signal?: AbortSignal;
  onRetry?: (reason: string, delayMs: number) => void;
}

/**
 * What one attempt came to. A failure the retry layer may act on names its
 * `failure`; one that is final whatever the policy (a redirect) has none.
 * `endTurn`, from the throttle, is the attempt's turn left open after a
 * failed status: the caller ends it with the shared pause it decides.
 */
export type Attempt<A extends Answer> =
  | { ok: true; answer: A }
  | { ok: false; error: Error; failure?: Failure; endTurn?: (pauseMs?: number) => void };

/** One attempt of a request; `tries` says how many came before (retry hands it down). */
export type Try<A extends Answer, R extends LayerRequest = LayerRequest> = (request: R, tries: RetryState) => Promise<Attempt<A>>;

export const FIRST_TRY: RetryState = Object.freeze({ retries: 0, rateLimitRetries: 0, waitedMs: 0 });

/**
 * The send as an attempt: an answer of any status is `ok` (judge decides),
 * a network failure or a timeout is a failure to weigh; anything else (an
 * abort, an answer over the size cap) is thrown, final.
 */
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

/** The judge: a 3xx or an error status becomes the error `toError` makes of it. */
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

/**
 * The client's flow control, once made (core/throttle.ts): each attempt waits for its turn;
 * its answer ends the turn, and a failed status leaves the turn open for the
 * retry layer to end with the shared pause it decides.
 */
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
  /** Told of every wait before another attempt (announce). */
  onWait?: (request: R, failure: Failure, delayMs: number) => void;
}

/**
 * Retries as CLI.md "retries" says (the decision is core/retry.ts's), and ends
 * a throttled 429's turn with the pause every request of the walk waits out.
 * Returns the answer, or throws the error of the last attempt.
 */
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
      // One shared pause for every request of the walk: the wait this 429 names (or the backoff chosen
      // when it names none). None when this request gives up (a wait past the retry cap): the others
      // then meet their own 429 and give up too, rather than sit out a wait nobody retries after.
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

/** Waits between attempts from this long on are announced (CLI.md "retries"). */
export const ANNOUNCED_WAIT_MS = 5_000;

/**
 * CLI.md "retries": a wait of 5 s or more gets one line, so a long pause is
 * never silent; requests in flight together that wait out the same pause say
 * so once (one announcer serves every request of a client).
 */
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
