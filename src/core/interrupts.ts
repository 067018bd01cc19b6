// Ctrl-C and SIGTERM, counted and routed to the handlers a command registered (the import drains
// on the first, abandons on the second). Two signals closer than SAME_INTERRUPTION_MS are one:
// `timeout -s INT` and CI runners signal the process, then its group (CLI.md "signals").

export const SAME_INTERRUPTION_MS = 100;

/** Nothing makes a signal wait, not even an output nobody reads (CLI.md "signals"). */
export const OUTPUT_GRACE_MS = 2_000;

export interface Press {
  count: number;
  handled: boolean;
  /** It belonged to the interruption before it: nothing was done. */
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
