// Core's two primitives (ENGINEERING.md habit 18): Limiter, a fair weighted
// semaphore for every "at most n at once" (batches in flight, bodies held, one
// save at a time), and Channel, the one queue from producers to a single reader.
// Both serve strictly in arrival order.

/** Gives back what was taken. Calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  weight: number;
  grant(release: Release): void;
}

/**
 * Each holder takes a weight (1 for a slot, a length for bytes). A weight over
 * the capacity goes alone once nothing is held; a waiter whose signal aborts
 * leaves the line; force() counts a weight without asking, for a holder that
 * must go on for room to come back. The capacity may change while held.
 */
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

  /** Counts `weight` now, whatever the room and the line. */
  force(weight: number): Release {
    return this.take(checkWeight(weight));
  }

  /** Runs `task` holding `weight`, given back however it ends: with a capacity of 1, tasks run one after another in the order given. */
  async run<R>(task: () => Promise<R>, weight = 1): Promise<R> {
    const release = await this.acquire(weight);
    try {
      return await task();
    } finally {
      release();
    }
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

/**
 * Items pushed as they come, read in order by one reader; close() ends the
 * reading once the rest is read, or with its error. A reader that stops early
 * lets go of what is left, and of every item pushed later, through `letGo`.
 */
export class Channel<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private closed?: { error?: unknown };
  private gone = false;
  private wake?: () => void;

  constructor(private readonly letGo: (item: T) => void = () => undefined) {}

  /** The reader waits: it has read everything pushed so far. */
  get idle(): boolean {
    return this.wake !== undefined;
  }

  push(item: T): void {
    if (this.gone) return this.letGo(item);
    this.items.push(item);
    this.notify();
  }

  close(error?: unknown): void {
    this.closed ??= { error };
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    let batch: (T | undefined)[] = [];
    let at = 0;
    try {
      for (;;) {
        while (at < batch.length) {
          const item = batch[at] as T;
          // Read items are the reader's: the channel keeps nothing of them.
          batch[at++] = undefined;
          yield item;
        }
        if (this.items.length) {
          [batch, at, this.items] = [this.items, 0, []];
          continue;
        }
        if (this.closed?.error) throw this.closed.error;
        if (this.closed) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      this.gone = true;
      for (const item of [...batch.slice(at), ...this.items.splice(0)]) this.letGo(item as T);
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

function checkWeight(weight: number): number {
  if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`Limiter: weight must be a finite number ≥ 0, not ${weight}`);
  return weight;
}

function checkCapacity(capacity: number): void {
  if (!(capacity > 0)) throw new RangeError(`Limiter: capacity must be > 0, not ${capacity}`);
}
