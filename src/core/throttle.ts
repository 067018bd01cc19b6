// Flow control for the walkers with requests in flight at once (CLI.md "flow
// control": the import's batches, --all, api --paginate). A service limited per
// second, not per connection, needs the request RATE paced too, as TCP paces its
// window (AIMD): slow start, one shared pause per 429, cut on a 429, raise on success.
import { Limiter, type Release } from './limiter.js';

export type Headers = Record<string, string | string[] | undefined>;

export interface ThrottleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: ThrottleClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ThrottleOptions {
  /** --concurrency: the most requests in flight. */
  maxInFlight: number;
  clock?: ThrottleClock;
  /** --debug sink: the rate changes. */
  debug?: (line: string) => void;
}

/** Share of a stated limit paced at: even spacing at the whole limit lets a fixed window catch one request too many when arrivals jitter. */
export const RATE_SHARE = 0.95;
/**
 * Slow start: a first round of two in flight, kept for PROBE_MS and PROBE_ANSWERS,
 * drains a burst that states no limit two at a time, so crossing it costs at most
 * two 429s, whether answers take a millisecond (time counts) or a second (answers
 * count). Then each round, once all answered, may be twice as large, up to
 * --concurrency. A stated limit (the pace takes over) or a 429 ends slow start.
 */
export const SLOW_START_WINDOW = 2;
export const PROBE_MS = 250;
export const PROBE_ANSWERS = 8;
/** Multiplicative decrease after a 429. */
export const CUT = 0.75;
/** Additive increase per successful answer, as a share of the reference rate (the stated limit, else the rate at the last cut). */
const RAISE_SHARE = 0.03;
/** Slowest pace, requests per second: the pause, not the pace, carries a long wait. */
const MIN_RATE = 0.2;
/** Successes remembered to measure what the service let through before a 429. */
const RECENT_SUCCESSES = 512;

export interface ThrottleStats {
  /** Answers 429 seen. */
  rateLimited: number;
  /** Wall time during which a request was ready to go but held by a pause or the pace (not by --concurrency). */
  waitedMs: number;
  /** The pace now, requests per second (Infinity: unpaced). */
  ratePerSecond: number;
}

export interface ThrottleTicket {
  readonly startedAt: number;
  /** Its answer was seen (done() was called). */
  settled: boolean;
}

/** A ticket as the throttle made it: with its place in flight. */
interface Turn extends ThrottleTicket {
  readonly release: Release;
}

interface Waiter {
  resolve(ticket: ThrottleTicket): void;
  reject(reason: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class Throttle {
  private readonly clock: ThrottleClock;
  private readonly max: number;
  /** The places in flight: during slow start as many as this round, after it --concurrency. */
  private readonly slots: Limiter;
  private slowStart = true;
  /**
   * The places of this slow-start round's answered requests: a round's places
   * come back together, once it is all answered, so during slow start the
   * places held are the requests this round started.
   */
  private roundBack: Release[] = [];
  private probeEndsAt = Number.POSITIVE_INFINITY;
  private probeAnswers = 0;
  private rate = Number.POSITIVE_INFINITY;
  /** The stated limit, requests per second (Infinity: none stated). */
  private ceiling = Number.POSITIVE_INFINITY;
  private statedLimit: number | undefined;
  private windowMs = 0;
  private rateAtCut = 0;
  private lastCutAt = Number.NEGATIVE_INFINITY;
  private lastStartAt = Number.NEGATIVE_INFINITY;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private lastLoggedRate = Number.POSITIVE_INFINITY;
  private readonly retries: Waiter[] = [];
  private readonly fresh: Waiter[] = [];
  private timer: unknown;
  private heldSince: number | undefined;
  private readonly successes: number[] = [];
  private successIndex = 0;
  private rateLimitedCount = 0;
  private waited = 0;

  constructor(private readonly options: ThrottleOptions) {
    this.clock = options.clock ?? realClock;
    this.max = Math.max(1, Math.floor(options.maxInFlight));
    this.slots = new Limiter(Math.min(this.max, SLOW_START_WINDOW));
  }

  get stats(): ThrottleStats {
    const held = this.heldSince === undefined ? 0 : this.clock.now() - this.heldSince;
    return { rateLimited: this.rateLimitedCount, waitedMs: Math.round(this.waited + held), ratePerSecond: this.rate };
  }

  /**
   * Waits for a turn: no shared pause, a place in flight, and the paced
   * moment. A retry goes before requests not yet sent, so a refused page or
   * batch does not fall behind the ones after it.
   */
  acquire(opts: { retry?: boolean; signal?: AbortSignal } = {}): Promise<ThrottleTicket> {
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<ThrottleTicket>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      const queue = opts.retry ? this.retries : this.fresh;
      if (signal) {
        waiter.onAbort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(signal.reason);
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      queue.push(waiter);
      this.pump();
    });
  }

  /**
   * The answer to a ticket's request: its status and headers, or undefined
   * when none came (a dropped connection, a timeout). For a 429, `pauseMs` is
   * the wait the service named (or the backoff chosen when it named none).
   */
  done(ticket: ThrottleTicket, answer?: { status: number; headers: Headers }, pauseMs?: number): void {
    if (ticket.settled) return;
    ticket.settled = true;
    const { release } = ticket as Turn;
    const now = this.clock.now();
    const roundSent = this.slots.used;
    const probing = this.probeAnswers < PROBE_ANSWERS || now < this.probeEndsAt;
    if (this.slowStart && !probing) this.roundBack.push(release);
    else release();
    if (answer) {
      // Timed from the first answer: the first request's connection and start-up say nothing of the service's pace.
      if (this.probeAnswers++ === 0) this.probeEndsAt = now + PROBE_MS;
      this.readLimit(answer.headers);
      if (answer.status === 429) this.rateLimited(ticket, now, pauseMs ?? 1000);
      else if (answer.status < 400) this.succeeded(now);
      if (this.slowStart && Number.isFinite(this.ceiling)) {
        // A stated limit sets the pace from here. The round already sent counts
        // against it, as if paced: two at once and then the pace would put one
        // too many in the first window of a fixed-window limiter.
        if (Number.isFinite(this.rate) && roundSent > 1) this.lastStartAt += ((roundSent - 1) * 1000) / this.rate;
        this.endSlowStart();
      } else if (this.slowStart && answer.status === 429) this.endSlowStart();
    }
    if (this.slowStart && !probing && this.roundBack.length === this.slots.used) {
      // The whole round is back: the next may be twice as large.
      const next = 2 * this.slots.capacity;
      this.giveBackRound();
      if (next >= this.max) this.endSlowStart();
      else this.slots.setCapacity(next);
    }
    this.pump();
  }

  private endSlowStart(): void {
    this.slowStart = false;
    this.giveBackRound();
    this.slots.setCapacity(this.max);
  }

  private giveBackRound(): void {
    for (const release of this.roundBack.splice(0)) release();
  }

  // ---- the rate ----------------------------------------------------------------------

  /** X-RateLimit-Limit requests per window; the window is the longest X-RateLimit-Reset seen (seconds from now, or an epoch time). */
  private readLimit(headers: Headers): void {
    const limit = numberHeader(headers, 'x-ratelimit-limit');
    const reset = numberHeader(headers, 'x-ratelimit-reset');
    if (limit === undefined || limit <= 0) return;
    if (reset !== undefined && reset > 0) {
      // Services send seconds until the reset or an epoch time in seconds (as core/retry.ts reads it).
      const ms = reset > 1_000_000_000 ? reset * 1000 - Date.now() : reset * 1000;
      if (ms > this.windowMs) this.windowMs = Math.ceil(ms / 1000) * 1000;
    }
    if (this.windowMs <= 0) return;
    const ceiling = (limit * 1000) / this.windowMs;
    if (limit === this.statedLimit && ceiling === this.ceiling) return;
    this.statedLimit = limit;
    this.ceiling = ceiling;
    const paced = RATE_SHARE * ceiling;
    const before = this.rate;
    // A new limit: pace at it, unless a cut is still being recovered from.
    if (!(this.rate < paced && this.lastCutAt > Number.NEGATIVE_INFINITY)) this.rate = paced;
    this.log(`the service allows ${limit} requests per ${this.windowMs / 1000} s (X-RateLimit-Limit, X-RateLimit-Reset): pacing at ${fmt(this.rate)} requests/s${before !== this.rate && Number.isFinite(before) ? ` (was ${fmt(before)})` : ''}`);
    this.lastLoggedRate = this.rate;
  }

  private succeeded(now: number): void {
    if (this.successes.length < RECENT_SUCCESSES) this.successes.push(now);
    else this.successes[this.successIndex++ % RECENT_SUCCESSES] = now;
    if (!Number.isFinite(this.rate)) return;
    const cap = RATE_SHARE * this.ceiling;
    if (this.rate >= cap) return;
    const reference = Number.isFinite(this.ceiling) ? this.ceiling : Math.max(1, this.rateAtCut);
    this.rate = Math.min(cap, this.rate + RAISE_SHARE * reference);
    // Told at the cap, or every 25 % up: not on each answer.
    if (this.rate >= cap || this.rate >= this.lastLoggedRate * 1.25) {
      this.log(`raising the pace to ${fmt(this.rate)} requests/s`);
      this.lastLoggedRate = this.rate;
    }
  }

  private rateLimited(ticket: ThrottleTicket, now: number, pauseMs: number): void {
    this.rateLimitedCount++;
    const until = now + Math.max(0, pauseMs);
    const extended = until > this.pausedUntil;
    if (extended) this.pausedUntil = until;
    // Sent before the last cut: it was refused under the old pace, which is already cut.
    if (ticket.startedAt < this.lastCutAt) {
      if (extended) this.log(`429 again: the shared pause now ends in ${secs(until - now)}`);
      return;
    }
    const before = this.rate;
    // Paced: cut the pace. Unpaced (no limit stated before): cut what the service let
    // through over the wait it names (at least a second), the rate it allows, roughly.
    const spanMs = Math.max(1000, pauseMs);
    const letThrough = this.successesSince(now - spanMs);
    if (!Number.isFinite(this.rate) && letThrough === 0 && !Number.isFinite(this.ceiling)) {
      // Nothing to measure the limit by (the first request was refused): wait, and measure on the next 429.
      this.log(`429: every request waits ${secs(pauseMs)} (one shared pause); no pace yet: nothing got through to measure it by`);
      return;
    }
    const base = Number.isFinite(this.rate) ? this.rate : Math.max(1, (letThrough * 1000) / spanMs);
    this.rate = Math.max(MIN_RATE, Math.min(CUT * base, RATE_SHARE * this.ceiling));
    this.rateAtCut = this.rate;
    this.lastCutAt = now;
    this.lastLoggedRate = this.rate;
    this.log(
      `429: every request waits ${secs(pauseMs)} (one shared pause); pace ${Number.isFinite(before) ? fmt(before) : 'unpaced'} → ${fmt(this.rate)} requests/s`,
    );
  }

  private successesSince(from: number): number {
    let n = 0;
    for (const t of this.successes) if (t > from) n++;
    return n;
  }

  // ---- the queue ---------------------------------------------------------------------

  /** Starts whoever may start now; otherwise sets one timer for the moment the next may. */
  private pump(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    for (;;) {
      const queue = this.retries.length ? this.retries : this.fresh;
      const now = this.clock.now();
      if (queue.length === 0) {
        this.endHold(now);
        return;
      }
      // Held by --concurrency or by the round of slow start: not a wait on the rate limit.
      if (!this.slots.hasRoom()) {
        this.endHold(now);
        return;
      }
      const interval = Number.isFinite(this.rate) ? 1000 / this.rate : 0;
      const at = Math.max(this.pausedUntil, this.lastStartAt + interval);
      if (at > now) {
        this.heldSince ??= now;
        this.timer = this.clock.setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, Math.ceil(at - now));
        return;
      }
      this.endHold(now);
      const waiter = queue.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.lastStartAt = now;
      // There is room (checked above): the place is taken as the request goes.
      const turn: Turn = { startedAt: now, settled: false, release: this.slots.tryAcquire()! };
      waiter.resolve(turn);
    }
  }

  private endHold(now: number): void {
    if (this.heldSince === undefined) return;
    this.waited += now - this.heldSince;
    this.heldSince = undefined;
  }

  private log(line: string): void {
    this.options.debug?.(`  flow: ${line}`);
  }
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

const fmt = (rate: number) => (rate >= 10 ? rate.toFixed(0) : rate.toFixed(1));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
