// Ctrl-C (SIGINT) and SIGTERM, counted as interruptions and routed to the
// handlers a command registered (the import drains its batches on the first
// and abandons them on the second). main() in src/cli.ts owns the signals;
// without a handler the first interruption aborts the command's signal, the
// second exits 130.
//
// CLI.md "signals": two signals less than SAME_INTERRUPTION_MS apart are one
// interruption. `timeout -s INT` and CI runners cancelling a job signal the
// process and then its whole process group, which holds the process too: a
// person cannot press Ctrl-C twice that fast, so the second is the same one.

export const SAME_INTERRUPTION_MS = 100;

/**
 * CLI.md "signals": nothing makes a signal wait, an output nobody reads
 * included. After a signal, what stdout and stderr still hold gets this long
 * to be taken (a reader that reads takes it well within); then the process
 * ends without it.
 */
export const OUTPUT_GRACE_MS = 2_000;

export interface Press {
  /** Interruptions so far (this one included). */
  count: number;
  /** A registered handler took it. */
  handled: boolean;
  /** Came less than SAME_INTERRUPTION_MS after the interruption it belongs to: nothing was done. */
  repeated?: true;
}

export class InterruptHub {
  private handlers = new Set<(count: number) => void>();
  private count = 0;
  private lastCountedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  register(handler: (count: number) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** One signal: counted, unless it repeats the interruption before it, and passed to the handlers. */
  fire(): Press {
    const at = this.now();
    if (at - this.lastCountedAt < SAME_INTERRUPTION_MS) return { count: this.count, handled: this.handlers.size > 0, repeated: true };
    this.lastCountedAt = at;
    this.count++;
    if (!this.handlers.size) return { count: this.count, handled: false };
    for (const h of [...this.handlers]) h(this.count);
    return { count: this.count, handled: true };
  }
}
