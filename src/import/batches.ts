// One batch of an import: up to --batch-size accepted rows, kept until the
// service has answered for them, so each row's outcome can be reported with
// its original cells and line.
import type { ImportFlags } from '../api/subscribers.js';
import type { ImportEntry } from './row-builder.js';

/** service-spec.md "Import request" and "Limits": 1 to 1000 entries per call (209 above). */
export const MAX_BATCH_SIZE = 1000;

export class Batch {
  /** Dropped once the body is built. */
  private entries: ImportEntry[] = [];
  readonly records: string[][] = [];
  readonly lines: number[] = [];
  retries = 0;

  constructor(
    /** Position in the file, from 0: batches are formed in file order, so the same file and options give the same batches. */
    readonly index: number,
  ) {}

  get size(): number {
    return this.records.length;
  }

  add(entry: ImportEntry, record: string[], line: number): void {
    this.entries.push(entry);
    this.records.push(record);
    this.lines.push(line);
  }

  /** The request body (service-spec.md "Import request"), built once; the entries are released. */
  body(flags: ImportFlags): string {
    const body = JSON.stringify({
      Subscribers: this.entries,
      Resubscribe: flags.Resubscribe,
      QueueSubscriptionBasedAutoResponders: flags.QueueSubscriptionBasedAutoResponders,
      RestartSubscriptionBasedAutoresponders: flags.RestartSubscriptionBasedAutoresponders,
    });
    this.entries = [];
    return body;
  }

  /** Positions of the rows by trimmed, lower-cased address: maps the service's FailureDetails back to rows. */
  positionsByAddress(emailColumn: number): Map<string, number> {
    const positions = new Map<string, number>();
    for (let i = 0; i < this.records.length; i++) {
      const key = (this.records[i]![emailColumn] ?? '').trim().toLowerCase();
      if (!positions.has(key)) positions.set(key, i);
    }
    return positions;
  }
}
