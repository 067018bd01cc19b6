// Ctrl-C (SIGINT) and SIGTERM presses, routed to the handlers a command
// registered (the import drains its batches on the first press and abandons
// them on the second). main() in src/cli.ts owns the signals; without a
// handler the first press aborts the command's signal, the second exits 130.

/** Routes Ctrl-C presses to the handlers a command registered. */
export class InterruptHub {
  private handlers = new Set<(count: number) => void>();
  private count = 0;
  register(handler: (count: number) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }
  /** Returns true when a command handled the press. */
  fire(): boolean {
    this.count++;
    if (!this.handlers.size) return false;
    for (const h of [...this.handlers]) h(this.count);
    return true;
  }
}
