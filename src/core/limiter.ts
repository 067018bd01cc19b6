// The one "at most n at once" of the codebase (ENGINEERING.md habit 18):
// batches in flight, deliveries being parsed, bytes of bodies read or held.
// A weighted semaphore: each holder takes a weight (1 for a slot, a length
// for bytes) and gives it back with the release it was handed.
//
// - Fair: waiters are served strictly in arrival order; a later, lighter one
//   never passes a heavier one ahead of it, so nobody starves. tryAcquire()
//   refuses while anyone waits, for the same reason.
// - A weight larger than the capacity goes alone, once nothing is held:
//   otherwise it could never go at all.
// - Abortable: a waiter whose signal aborts leaves the line (its promise
//   rejects with the signal's reason) and those behind it move up.
// - force() counts a weight without asking: for a holder that must go on for
//   any room to come back (the oldest body being read), so back-pressure
//   cannot wait on itself.
// - The capacity may change while held: lowering it lets the holders finish,
//   raising it serves the waiters at once.

/** Gives back what was taken. Calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  weight: number;
  grant(release: Release): void;
}

export class Limiter {
  private held = 0;
  private highest = 0;
  private readonly line: Waiter[] = [];

  constructor(private max: number) {
    checkCapacity(max);
  }

  /** The most that may be held at once. */
  get capacity(): number {
    return this.max;
  }

  /** What is held now. */
  get used(): number {
    return this.held;
  }

  /** The most held at once so far. */
  get peak(): number {
    return this.highest;
  }

  /** How many wait in line. */
  get waiting(): number {
    return this.line.length;
  }

  /** Whether `weight` could be taken now without waiting (what tryAcquire would answer, taking nothing). */
  hasRoom(weight = 1): boolean {
    return this.line.length === 0 && this.fits(checkWeight(weight));
  }

  /** Takes `weight` now if it fits and nobody waits; undefined otherwise, for a caller that refuses rather than waits. */
  tryAcquire(weight = 1): Release | undefined {
    return this.hasRoom(weight) ? this.take(weight) : undefined;
  }

  /** Takes `weight` once it fits and everyone who came before has been served; rejects with the signal's reason if it aborts first. */
  acquire(weight = 1, signal?: AbortSignal): Promise<Release> {
    checkWeight(weight);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.hasRoom(weight)) return Promise.resolve(this.take(weight));
    return new Promise<Release>((resolve, reject) => {
      const onAbort = () => {
        const at = this.line.indexOf(waiter);
        if (at >= 0) this.line.splice(at, 1);
        reject(signal!.reason);
        // The one that left may have been what held the others back.
        this.serve();
      };
      const waiter: Waiter = {
        weight,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(waiter);
    });
  }

  /** Counts `weight` now, whatever the room and the line (see the top of this file). */
  force(weight: number): Release {
    return this.take(checkWeight(weight));
  }

  /** Changes the capacity; those already holding keep what they hold. */
  setCapacity(capacity: number): void {
    checkCapacity(capacity);
    this.max = capacity;
    this.serve();
  }

  private fits(weight: number): boolean {
    return this.held === 0 || this.held + weight <= this.max;
  }

  private take(weight: number): Release {
    this.held += weight;
    this.highest = Math.max(this.highest, this.held);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.held -= weight;
      this.serve();
    };
  }

  /** Serves the line in order while its first fits. */
  private serve(): void {
    while (this.line.length && this.fits(this.line[0]!.weight)) {
      const waiter = this.line.shift()!;
      waiter.grant(this.take(waiter.weight));
    }
  }
}

/** Items pushed as they come, read in order by one consumer; close() ends the reading once the rest is read, or with its error. */
export class Channel<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private closed?: { error?: unknown };
  private wake?: () => void;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  close(error?: unknown): void {
    this.closed ??= { error };
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      yield* this.items.splice(0);
      if (this.items.length) continue;
      if (this.closed?.error) throw this.closed.error;
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

function checkWeight(weight: number): number {
  if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`Limiter: weight must be a finite number ≥ 0, not ${weight}`);
  return weight;
}

function checkCapacity(capacity: number): void {
  if (!(capacity > 0)) throw new RangeError(`Limiter: capacity must be > 0, not ${capacity}`);
}
