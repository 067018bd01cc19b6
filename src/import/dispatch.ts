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

interface DispatchOptions<T> {
  concurrency: number;
  /** Runs one task; a promise holds a slot until it settles. It should not reject: a rejection goes to onError. */
  work(task: T, signal: AbortSignal): Promise<void> | void;
  /** A slot came free (or a waiting task started): the producer may push again. */
  onRoom(): void;
  onError(error: unknown): void;
}

export class Dispatcher<T> {
  private running = 0;
  private readonly waiting: T[] = [];
  private closed = false;
  private stopped = false;
  private readonly controller = new AbortController();
  private resolveDone!: () => void;
  /** Resolves once no task runs and none will start: after close() when every task is done, or after stop() when the running ones are. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly options: DispatchOptions<T>) {}

  /** Tasks running now. */
  get inFlight(): number {
    return this.running;
  }

  /** True while no task waits for a slot: the producer may go on producing. */
  get hasRoom(): boolean {
    return this.waiting.length === 0;
  }

  get stopping(): boolean {
    return this.stopped;
  }

  /** Starts the task now if a slot is free and nothing waits before it; otherwise it waits its turn. Ignored once stopped. */
  push(task: T): void {
    if (this.stopped) return;
    if (this.closed) throw new Error('Dispatcher: push after close');
    if (this.running < this.options.concurrency && this.waiting.length === 0) this.start(task);
    else this.waiting.push(task);
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
    this.waiting.length = 0;
    this.settle();
  }

  /** Stops, and aborts the running tasks' signal. */
  cancel(): void {
    this.stop();
    this.controller.abort();
  }

  private start(task: T): void {
    let pending: Promise<void> | void;
    try {
      pending = this.options.work(task, this.controller.signal);
    } catch (err) {
      this.options.onError(err);
      return;
    }
    if (!pending) return;
    this.running++;
    pending
      .catch((err: unknown) => this.options.onError(err))
      .finally(() => {
        this.running--;
        this.settle();
      });
  }

  /** After a task or a change of state: fill the free slots in order, let the producer go on, or finish. */
  private settle(): void {
    while (this.waiting.length && this.running < this.options.concurrency && !this.stopped) this.start(this.waiting.shift()!);
    if (this.running === 0 && (this.stopped || (this.closed && this.waiting.length === 0))) {
      this.resolveDone();
      return;
    }
    if (!this.stopped && !this.closed && this.waiting.length === 0) this.options.onRoom();
  }
}
