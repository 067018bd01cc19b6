// A request as layers around one send, in the manner of octokit's plugins
// (plugin-retry, plugin-throttling): each layer wraps the next and does one
// thing, so the policy of each is read in one place and tested alone.
//
//   announce   a wait of 5 s or more gets one line on stderr (CLI.md "retries")
//   retry      decides, after a failed attempt, whether and when to try again (core/retry.ts)
//   throttle   a walk's flow control: each attempt waits its turn; a 429 sets one
//              pause shared by every request in flight (CLI.md "flow control", core/throttle.ts)
//   judge      an answer that is not 2xx becomes its typed error (a 3xx never followed)
//   send       one HTTP exchange (src/core/http.ts ApiClient.once)
//
// The layers meet in the Exchange: what one request is, what its attempts
// cost so far, and what the inner layers leave for the outer ones after a
// failed attempt (the answer that failed, the throttle's ticket to release).
import { ApiError, NetworkError, RateLimitError, TimeoutError } from './errors.js';
import { decideRetry, type Failure, type RetryPolicy, type RetryState } from './retry.js';
import type { Throttle } from './throttle.js';

export type Headers = Record<string, string | string[] | undefined>;

export interface Answer {
  status: number;
  headers: Headers;
}

/** What the layers know of a request's options. */
export interface ExchangeOptions {
  method: string;
  /** The path as given (without the base path and query): what messages name. */
  path: string;
  idempotent: boolean;
  signal?: AbortSignal;
  throttle?: Throttle;
  onRetry?: (reason: string, delayMs: number) => void;
}

/** One request on its way through the layers. */
export interface Exchange<O extends ExchangeOptions = ExchangeOptions> {
  readonly opts: O;
  readonly state: RetryState;
  /** Set by judge: the answer of the attempt that just failed with a status. */
  failed?: Answer;
  /** Set by throttle when an attempt failed with a status: ends its turn with the pause retry decides (ms; undefined: none of its own). */
  release?: (pauseMs?: number) => void;
  /** Told of every wait between attempts (announce listens). */
  readonly waits: ((failure: Failure, delayMs: number) => void)[];
}

export type Send<A extends Answer, O extends ExchangeOptions = ExchangeOptions> = (exchange: Exchange<O>) => Promise<A>;
export type Layer<A extends Answer, O extends ExchangeOptions = ExchangeOptions> = (next: Send<A, O>) => Send<A, O>;

/** The layers around `send`, the first one outermost. */
export function layered<A extends Answer, O extends ExchangeOptions>(layers: Layer<A, O>[], send: Send<A, O>): Send<A, O> {
  return layers.reduceRight((next, layer) => layer(next), send);
}

export function newExchange<O extends ExchangeOptions>(opts: O): Exchange<O> {
  return { opts, state: { retries: 0, rateLimitRetries: 0, waitedMs: 0 }, waits: [] };
}

/** The judge: a 3xx or an error status becomes the error `toError` makes of it, and the answer is kept for the layers above. */
export function judgeLayer<A extends Answer, O extends ExchangeOptions>(toError: (answer: A, exchange: Exchange<O>) => Error): Layer<A, O> {
  return (next) => async (x) => {
    x.failed = undefined;
    const answer = await next(x);
    if (answer.status < 300) return answer;
    // A redirect is judged but is no failure to retry or to slow down for: no `failed`.
    if (answer.status >= 400) x.failed = { status: answer.status, headers: answer.headers };
    throw toError(answer, x);
  };
}

/**
 * The walk's flow control (core/throttle.ts): each attempt waits for its turn;
 * its answer ends the turn, and a failed status leaves the turn open for the
 * retry layer to end with the shared pause it decides.
 */
export function throttleLayer<A extends Answer, O extends ExchangeOptions>(signalOf: (x: Exchange<O>) => AbortSignal | undefined): Layer<A, O> {
  return (next) => async (x) => {
    const throttle = x.opts.throttle;
    if (!throttle) return next(x);
    const ticket = await throttle.acquire({ retry: x.state.retries + x.state.rateLimitRetries > 0, signal: signalOf(x) });
    let answer: A;
    try {
      answer = await next(x);
    } catch (err) {
      const failed = x.failed;
      if (failed && err instanceof ApiError) x.release = (pauseMs) => throttle.done(ticket, failed, pauseMs);
      else throttle.done(ticket);
      throw err;
    }
    throttle.done(ticket, answer);
    return answer;
  };
}

export interface RetryDeps {
  policy: RetryPolicy;
  now: () => number;
  debug: (line: string) => void;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signalOf: (x: { opts: ExchangeOptions }) => AbortSignal | undefined;
}

/** Retries as CLI.md "retries" says (the decision is core/retry.ts's), and sets the shared pause of a throttled 429. */
export function retryLayer<A extends Answer, O extends ExchangeOptions>(deps: RetryDeps): Layer<A, O> {
  return (next) => async (x) => {
    const { opts, state } = x;
    for (;;) {
      let failure: Failure;
      let finalError: Error;
      try {
        return await next(x);
      } catch (err) {
        if (err instanceof ApiError && x.failed) {
          failure = { kind: 'status', status: x.failed.status, headers: x.failed.headers, message: err.message };
        } else if (err instanceof NetworkError) {
          failure = err instanceof TimeoutError ? { kind: 'timeout', message: err.message } : { kind: 'network', message: err.message, notSent: err.neverSent };
        } else {
          throw err;
        }
        finalError = err;
      }
      const decision = decideRetry(failure, opts.idempotent, state, deps.policy, deps.now());
      deps.debug(`  ${decision.reason}`);
      const rateLimited = failure.kind === 'status' && failure.status === 429;
      // One shared pause for every request of the walk: the wait this 429 names (or the backoff chosen
      // when it names none). None when this request gives up (a wait past the retry cap): the others
      // then meet their own 429 and give up too, rather than sit out a wait nobody retries after.
      x.release?.(rateLimited ? (decision.retry ? decision.delayMs : 0) : undefined);
      x.release = undefined;
      if (!decision.retry) {
        if (decision.capExceeded && rateLimited) {
          throw new RateLimitError({
            status: 429,
            method: opts.method,
            path: opts.path,
            message: `rate limited: the service asks to wait ${Math.ceil(decision.capExceeded.wantedMs / 1000)}s, more than the retry cap allows`,
            retryAfterMs: decision.capExceeded.wantedMs,
          });
        }
        throw finalError;
      }
      opts.onRetry?.(decision.reason, decision.delayMs);
      for (const heard of x.waits) heard(failure, decision.delayMs);
      if (rateLimited) state.rateLimitRetries++;
      else state.retries++;
      state.waitedMs += decision.delayMs;
      // Under a throttle the retry of a 429 waits in the throttle's acquire(), on the shared pause.
      if (!(rateLimited && opts.throttle)) await deps.sleep(decision.delayMs, deps.signalOf(x));
    }
  };
}

/** Waits between attempts from this long on are announced (CLI.md "retries"). */
export const ANNOUNCED_WAIT_MS = 5_000;

/**
 * CLI.md "retries": a wait of 5 s or more gets one line, so a long pause is
 * never silent; requests in flight together that wait out the same pause say
 * so once (`state` is shared by every request of one client).
 */
export function announceLayer<A extends Answer, O extends ExchangeOptions>(announce: (line: string, waitMs: number) => void, now: () => number, shared: { announcedUntilMs: number }): Layer<A, O> {
  return (next) => (x) => {
    x.waits.push((failure, delayMs) => {
      if (delayMs < ANNOUNCED_WAIT_MS) return;
      const at = now();
      if (at + delayMs <= shared.announcedUntilMs + 1000) return;
      shared.announcedUntilMs = at + delayMs;
      const seconds = Math.ceil(delayMs / 1000);
      const { method, path } = x.opts;
      let line: string;
      if (failure.kind === 'status' && failure.status === 429) line = `waiting ${seconds} s: the service asked us to slow down (HTTP 429 on ${method} ${path})`;
      else if (failure.kind === 'status') line = `waiting ${seconds} s before trying ${method} ${path} again (HTTP ${failure.status})`;
      else line = `waiting ${seconds} s before trying again: ${failure.message}`;
      announce(line, delayMs);
    });
    return next(x);
  };
}
