// The dispatch stage of an import: bounded, ordered, cancellable concurrency.
// Tasks start in the order they are pushed, at most `concurrency` at a time;
// a task that cannot start waits, and while one waits the producer is told
// there is no room (the importer stops reading, so the file waits on disk).
// A task whose work is synchronous (a dry run, a batch the journal already
// holds) takes no slot. Retries are not this stage's business: they live in
// the HTTP core, inside a task.
//
// stop(): no more tasks start (those waiting are dropped), the running ones
// finish. cancel(): stop, and abort the signal the running tasks were given.
// The slots and their line are core's Limiter, as every bound's are.

import { Limiter, type Release } from '../core/limiter.js';

interface DispatchOptions<T> {
  concurrency: number;
  /** Runs one task; a promise holds a slot until it settles. It should not reject: a rejection goes to onError. */
  work(task: T, signal: AbortSignal): Promise<void> | void;
  /** A slot came free (or a waiting task started): the producer may push again. */
  onRoom(): void;
  onError(error: unknown): void;
}

export class Dispatcher<T> {
  /** The slots: tasks waiting for one wait in its line, in push order. */
  private readonly slots: Limiter;
  private closed = false;
  private stopped = false;
  private readonly controller = new AbortController();
  /** Takes the waiting tasks out of the slots' line at stop(). */
  private readonly dropWaiting = new AbortController();
  private resolveDone!: () => void;
  /** Resolves once no task runs and none will start: after close() when every task is done, or after stop() when the running ones are. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly options: DispatchOptions<T>) {
    this.slots = new Limiter(Math.max(1, options.concurrency));
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.slots.used;
  }

  /** True while no task waits for a slot: the producer may go on producing. */
  get hasRoom(): boolean {
    return this.slots.waiting === 0;
  }

  get stopping(): boolean {
    return this.stopped;
  }

  /** Starts the task now if a slot is free and nothing waits before it; otherwise it waits its turn. Ignored once stopped. */
  push(task: T): void {
    if (this.stopped) return;
    if (this.closed) throw new Error('Dispatcher: push after close');
    const slot = this.slots.tryAcquire();
    if (slot) {
      this.start(task, slot);
      return;
    }
    this.slots.acquire(1, this.dropWaiting.signal).then(
      (granted) => {
        // Stopped between the grant and now: the task never starts.
        if (this.stopped) granted();
        else this.start(task, granted);
        this.settle();
      },
      () => undefined, // dropped by stop()
    );
  }

  /** No more tasks will be pushed: `done` resolves when the last one finishes. */
  close(): void {
    this.closed = true;
    this.settle();
  }

  /** Starts nothing more; the running tasks finish. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.dropWaiting.abort();
    this.settle();
  }

  /** Stops, and aborts the running tasks' signal. */
  cancel(): void {
    this.stop();
    this.controller.abort();
  }

  /** Runs a task in the slot it was given; a synchronous task gives the slot back at once. */
  private start(task: T, slot: Release): void {
    let pending: Promise<void> | void;
    try {
      pending = this.options.work(task, this.controller.signal);
    } catch (err) {
      slot();
      this.options.onError(err);
      return;
    }
    if (!pending) {
      slot();
      return;
    }
    pending
      .catch((err: unknown) => this.options.onError(err))
      .finally(() => {
        slot();
        this.settle();
      });
  }

  /** After a task or a change of state: let the producer go on, or finish. */
  private settle(): void {
    if (this.slots.used === 0 && (this.stopped || (this.closed && this.slots.waiting === 0))) {
      this.resolveDone();
      return;
    }
    if (!this.stopped && !this.closed && this.slots.waiting === 0) this.options.onRoom();
  }
}
