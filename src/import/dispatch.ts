// The send stage: bounded, ordered, cancellable concurrency over batches
// pulled from an async iterable. The next batch is pulled only once the last
// has a slot, so the reading waits with it (back-pressure: the file waits on
// disk). Retries live in the HTTP core, inside a task.
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
  /** Drops a task waiting for a slot at stop(). */
  private readonly stopped = new AbortController();

  constructor(private readonly options: SendOptions<T>) {
    this.slots = new Limiter(Math.max(1, options.concurrency));
  }

  get inFlight(): number {
    return this.slots.used;
  }

  get stopping(): boolean {
    return this.stopped.signal.aborted;
  }

  /** Runs the tasks until they end or stop(); a failure of their source (a parse error) is thrown once the running ones are done. */
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

  /** Nothing more is pulled or started; the running tasks finish. */
  stop(): void {
    this.stopped.abort();
  }

  cancel(): void {
    this.stop();
    this.cancelled.abort();
  }

  /** A synchronous task (a dry run, a batch from the journal) gives its slot back at once. */
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
