// The events a listener has answered, waiting for the renderer: pushed a
// delivery at a time, taken one by one as stdout takes them. A delivery is
// held (against the receiver's bound) until the renderer has asked past its
// last event, which it does once that event is written; when the renderer
// stops taking (the reader of stdout went away), whatever is queued or comes
// later is let go at once, since nothing will print it. A delivery not yet
// printed can be withdrawn (answered 503: the service sends it again), so
// stdout never prints what the sender was told to send again.

interface Entry<T> {
  record?: T;
  /** After a delivery's last record: that delivery is printed (true), or let go unprinted (false). */
  taken?: (written: boolean) => void;
  /** Its delivery's state, shared by the delivery's entries. */
  push?: Pushed;
}

interface Pushed {
  withdrawn: boolean;
  finished: boolean;
}

const EMPTY: Entry<never> = {};

export class EventQueue<T> implements AsyncIterable<T>, AsyncIterator<T> {
  private entries: Entry<T>[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;
  private closed = false;

  /**
   * A delivery's records (the ones to print: none is fine); `taken` runs once
   * they are written (true), or let go (false). Returns its withdrawal: true
   * unless it was written or let go already; the records not yet given to
   * the renderer then never are (some may have been: printed again when the
   * service sends the delivery again), and `taken` does not run.
   */
  push(records: readonly T[], taken: (written: boolean) => void): () => boolean {
    if (this.closed) {
      taken(false);
      return () => false;
    }
    const push: Pushed = { withdrawn: false, finished: false };
    for (const record of records) this.entries.push({ record, push });
    this.entries.push({ taken, push });
    this.wake();
    return () => {
      if (push.finished || push.withdrawn) return false;
      push.withdrawn = true;
      // Its records go now: a withdrawn delivery holds no memory while earlier ones wait for stdout.
      for (let i = this.head; i < this.entries.length; i++) if (this.entries[i]!.push === push) this.entries[i] = EMPTY;
      return true;
    };
  }

  /** Whether the renderer is waiting for a record: stdout has taken all it was given. */
  get idle(): boolean {
    return this.waiting !== undefined;
  }

  /** No more deliveries: the iteration ends once the queued ones are taken. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    const result = this.take();
    if (result) return Promise.resolve(result);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The renderer stops taking: everything queued is let go, and so is every later delivery. */
  async return(): Promise<IteratorResult<T>> {
    this.closed = true;
    const rest = this.entries.slice(this.head);
    this.entries = [];
    this.head = 0;
    for (const entry of rest) {
      if (entry.push) entry.push.finished = true;
      entry.taken?.(false);
    }
    this.wake();
    return { done: true, value: undefined };
  }

  private take(): IteratorResult<T> | undefined {
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head]!;
      // A record taken is the renderer's: the queue keeps nothing of it (a delivery may hold 10 MiB).
      this.entries[this.head++] = EMPTY;
      if (this.head === this.entries.length || (this.head > 1024 && this.head * 2 > this.entries.length)) {
        this.entries = this.entries.slice(this.head);
        this.head = 0;
      }
      if (entry.taken) {
        entry.push!.finished = true;
        entry.taken(true);
      } else if (entry !== EMPTY) return { done: false, value: entry.record as T };
    }
    return this.ended || this.closed ? { done: true, value: undefined } : undefined;
  }

  private wake(): void {
    if (!this.waiting) return;
    const result = this.take();
    if (!result) return;
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve(result);
  }
}
