// The bounds of the webhook receiver (CLI.md `webhooks listen`), so nothing a
// sender or a sink does can take the memory or the event loop: each is one of
// core's Limiters, and this file says what they are and reports what they hold.
import type { ServerResponse } from 'node:http';
import { Limiter, type Release } from '../core/limiter.js';
import { ReadingBudget } from './body-reader.js';
import { WEBHOOK_BATCH_LIMIT } from './events.js';

/**
 * 1,000 events of a few hundred bytes each are well under 1 MiB; 10 MiB leaves
 * room for big custom fields and bounds what one sender can make us hold.
 */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** service-spec.md "Events" rule 3: at most 1000 events per request. */
export const DEFAULT_MAX_EVENTS = WEBHOOK_BATCH_LIMIT;
/**
 * Whole bodies parsed at once. The service sends one request every 10
 * seconds per webhook, so a handful of places serves many lists; the burst
 * test (50 concurrent deliveries of 1,000 events) is answered in full with
 * them, the others waiting their turn.
 */
export const DEFAULT_MAX_IN_PROGRESS = 4;
/**
 * Bytes of bodies read and not yet parsed, all senders together: four
 * deliveries of the largest size, what the places held before bodies were
 * read outside them.
 */
export const DEFAULT_MAX_READING_BYTES = 4 * DEFAULT_MAX_BODY_BYTES;
/**
 * Bytes of deliveries answered 200 and not yet done with (printed, saved,
 * forwarded). Three deliveries of the largest size, or about a hundred of
 * 1,000 ordinary events (~300 KB each): ten minutes of one list's deliveries
 * at the service's pace of one every 10 s, enough for a sink that pauses, not
 * for one that has stopped. Their decoded events take about as much again,
 * so with the bodies being read the process stays near 200 MB at worst.
 */
export const DEFAULT_MAX_HELD_BYTES = 32 * 1024 * 1024;

export interface LimitOptions {
  /** Whole bodies parsed at once; the others wait. */
  maxInProgress?: number;
  /** Bytes of bodies read and not yet parsed, all senders together. */
  maxReadingBytes?: number;
  /** Bytes of deliveries answered 200 and not yet done(); past it, 503. */
  maxHeldBytes?: number;
}

export interface ReceiverStats {
  /** Requests whose body is being read. */
  reading: number;
  /** Deliveries being parsed. */
  inProgress: number;
  /** Whole bodies waiting for a place to be parsed. */
  waiting: number;
  peakInProgress: number;
  /** Bytes of bodies read and not yet parsed. */
  bufferedBytes: number;
  peakBufferedBytes: number;
  /** Bytes of deliveries answered 200 and not yet done with. */
  heldBytes: number;
  peakHeldBytes: number;
}

export class ReceiverLimits {
  /** Places for whole bodies being parsed, given in arrival order. */
  private readonly places: Limiter;
  /** Bytes of bodies read and not yet parsed. */
  readonly budget: ReadingBudget;
  /**
   * Bytes of deliveries answered 200 and not yet done with. Never waited
   * for: past it the answer is 503. One delivery is always taken when
   * nothing is held, however large the bound (the limiter's rule too).
   */
  private readonly held: Limiter;

  constructor(options: LimitOptions) {
    this.places = new Limiter(options.maxInProgress ?? DEFAULT_MAX_IN_PROGRESS);
    this.budget = new ReadingBudget(options.maxReadingBytes ?? DEFAULT_MAX_READING_BYTES);
    this.held = new Limiter(options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES);
  }

  /**
   * A place to parse a whole body, once one is free; undefined when the
   * connection closed while waiting (the answer can no longer be sent).
   */
  async takePlace(res: ServerResponse): Promise<Release | undefined> {
    const free = this.places.tryAcquire();
    if (free) return free;
    const gone = new AbortController();
    const abort = () => gone.abort();
    res.once('close', abort);
    try {
      return await this.places.acquire(1, gone.signal);
    } catch {
      return undefined;
    } finally {
      res.off('close', abort);
    }
  }

  /** Whether a body of `bytes` (a Content-Length) would be refused as busy once read. */
  wouldOverflow(bytes: number): boolean {
    return Number.isFinite(bytes) && bytes >= 0 && !this.held.hasRoom(bytes);
  }

  /** Holds a delivery's bytes until its release; undefined when they do not fit (answer 503). */
  hold(bytes: number): Release | undefined {
    return this.held.tryAcquire(bytes);
  }

  /** Why a delivery is refused as busy, for the 503's body and the rejection line. */
  busyReason(): string {
    return `busy: holding ${describeSize(this.held.used)} of deliveries not yet handed on (at most ${describeSize(this.held.capacity)}); send it again later`;
  }

  stats(): ReceiverStats {
    return {
      reading: this.budget.reading,
      inProgress: this.places.used,
      waiting: this.places.waiting,
      peakInProgress: this.places.peak,
      bufferedBytes: this.budget.buffered,
      peakBufferedBytes: this.budget.peak,
      heldBytes: this.held.used,
      peakHeldBytes: this.held.peak,
    };
  }
}

/** Bytes in MiB with one decimal: `26.4 MiB`. */
function describeSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}
