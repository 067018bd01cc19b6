// The send stage of an import: bounded, ordered, cancellable concurrency,
// pulling its tasks (batches) from an async iterable. A task is pulled, then
// waits for a slot; the next is pulled only once it has one, so at most one
// formed task waits and the stages before it (the reading) wait with it:
// back-pressure, the file waits on disk. Tasks start in the order they come,
// at most `concurrency` at a time; a task whose work is synchronous (a dry
// run, a batch the journal already holds) gives its slot back at once.
// Retries are not this stage's business: they live in the HTTP core, inside
// a task. The slots are core's Limiter, as every bound's are.
//
// stop(): nothing more is pulled or started (a task waiting for a slot is
// dropped), the running ones finish. cancel(): stop, and abort the signal
// the running tasks were given.
import { Limiter, type Release } from '../core/limiter.js';

interface SendOptions<T> {
  concurrency: number;
  /** Runs one task; a promise holds a slot until it settles. It should not reject: a rejection goes to onError. */
  work(task: T, signal: AbortSignal): Promise<void> | void;
  onError(error: unknown): void;
}

export class SendLoop<T> {
  private readonly slots: Limiter;
  private readonly running = new Set<Promise<void>>();
  private readonly cancelled = new AbortController();
  /** Takes a task waiting for a slot out of the line at stop(). */
  private readonly stopped = new AbortController();

  constructor(private readonly options: SendOptions<T>) {
    this.slots = new Limiter(Math.max(1, options.concurrency));
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.slots.used;
  }

  get stopping(): boolean {
    return this.stopped.signal.aborted;
  }

  /**
   * Pulls and runs the tasks until they end or stop() is called, then waits
   * for the running ones. A failure of the tasks' source (a parse error) is
   * thrown once the running tasks are done.
   */
  async run(tasks: AsyncIterable<T>): Promise<void> {
    try {
      for await (const task of tasks) {
        if (this.stopping) break;
        let slot: Release;
        try {
          slot = await this.slots.acquire(1, this.stopped.signal);
        } catch {
          break; // dropped by stop()
        }
        this.start(task, slot);
        if (this.stopping) break;
      }
    } finally {
      while (this.running.size) await Promise.allSettled([...this.running]);
    }
  }

  /** Pulls and starts nothing more; the running tasks finish. */
  stop(): void {
    this.stopped.abort();
  }

  /** Stops, and aborts the running tasks' signal. */
  cancel(): void {
    this.stop();
    this.cancelled.abort();
  }

  /** Runs a task in the slot it was given; a synchronous task gives the slot back at once. */
  private start(task: T, slot: Release): void {
    let pending: Promise<void> | void;
    try {
      pending = this.options.work(task, this.cancelled.signal);
    } catch (err) {
      slot();
      this.options.onError(err);
      return;
    }
    if (!pending) {
      slot();
      return;
    }
    const running: Promise<void> = pending
      .catch((err: unknown) => this.options.onError(err))
      .finally(() => {
        slot();
        this.running.delete(running);
      });
    this.running.add(running);
  }
}
