// The webhook receiver's bounds (CLI.md `webhooks listen`), each one of core's Limiters, so
// nothing a sender or sink does can take the memory or the event loop.
import type { ServerResponse } from 'node:http';
import { Limiter, type Release } from '../core/limiter.js';
import { ReadingBudget } from './body-reader.js';
import { WEBHOOK_BATCH_LIMIT } from './events.js';

/** A full delivery is far smaller; this leaves room for big custom fields and bounds one sender. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_EVENTS = WEBHOOK_BATCH_LIMIT;
/** The service sends one request every 10 seconds per webhook, so a handful of places serves many lists. */
export const DEFAULT_MAX_IN_PROGRESS = 4;
export const DEFAULT_MAX_READING_BYTES = 4 * DEFAULT_MAX_BODY_BYTES;
/**
 * Enough for a sink that pauses, not for one that has stopped: several minutes of one list's
 * deliveries at the service's pace. Past it the answer is 503, never a 200 for what cannot be kept.
 */
export const DEFAULT_MAX_HELD_BYTES = 32 * 1024 * 1024;

export interface LimitOptions {
  maxInProgress?: number;
  maxReadingBytes?: number;
  maxHeldBytes?: number;
}

export interface ReceiverStats {
  reading: number;
  inProgress: number;
  waiting: number;
  peakInProgress: number;
  bufferedBytes: number;
  peakBufferedBytes: number;
  heldBytes: number;
  peakHeldBytes: number;
}

export class ReceiverLimits {
  private readonly places: Limiter;
  readonly budget: ReadingBudget;
  /** Never waited for: past it, 503. One delivery is always taken when nothing is held. */
  private readonly held: Limiter;

  constructor(options: LimitOptions) {
    this.places = new Limiter(options.maxInProgress ?? DEFAULT_MAX_IN_PROGRESS);
    this.budget = new ReadingBudget(options.maxReadingBytes ?? DEFAULT_MAX_READING_BYTES);
    this.held = new Limiter(options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES);
  }

  /** Undefined when the connection closed while waiting: the answer can no longer be sent. */
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

  wouldOverflow(bytes: number): boolean {
    return Number.isFinite(bytes) && bytes >= 0 && !this.held.hasRoom(bytes);
  }

  hold(bytes: number): Release | undefined {
    return this.held.tryAcquire(bytes);
  }

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

function describeSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}
