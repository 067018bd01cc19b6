// The events a listener has answered, waiting for stdout, on core's Channel: a
// delivery is held until the renderer asks past its last event, may be withdrawn
// until then (answered 503: stdout never prints what the sender sends again), and
// is let go unprinted once the renderer stops taking.
import { Channel } from '../core/limiter.js';

interface Held<T> {
  records: readonly T[];
  /** Neither printed, let go nor withdrawn yet. */
  open: boolean;
  taken(written: boolean): void;
}

export interface EventQueue<T> {
  /** The records in order; iterate once. */
  readonly records: AsyncIterable<T>;
  /** The renderer waits for a record: stdout has taken all it was given. */
  readonly idle: boolean;
  /**
   * A delivery's records (none is fine); `taken` runs once they are written
   * (true) or let go (false). Returns its withdrawal: true unless written or
   * let go already; the records not yet given are then never given, and
   * `taken` does not run.
   */
  push(records: readonly T[], taken: (written: boolean) => void): () => boolean;
  /** No more deliveries: the records end once the queued ones are taken. */
  end(): void;
}

export function eventQueue<T>(): EventQueue<T> {
  const finish = (held: Held<T>, written: boolean) => {
    if (!held.open) return;
    held.open = false;
    held.taken(written);
  };
  const channel = new Channel<Held<T>>((held) => finish(held, false));
  async function* records(): AsyncGenerator<T> {
    for await (const held of channel) {
      let written = false;
      try {
        for (let i = 0; i < held.records.length; i++) yield held.records[i]!;
        written = true;
      } finally {
        finish(held, written);
      }
    }
  }
  return {
    records: records(),
    get idle() {
      return channel.idle;
    },
    push(records, taken) {
      const held: Held<T> = { records, open: true, taken };
      channel.push(held);
      return () => {
        if (!held.open) return false;
        held.open = false;
        // Its records go now: a withdrawn delivery holds no memory while earlier ones wait for stdout.
        held.records = [];
        return true;
      };
    },
    end: () => channel.close(),
  };
}
