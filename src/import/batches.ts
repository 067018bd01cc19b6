// One batch of an import: up to --batch-size accepted rows. It keeps only
// what gives each row its outcome (line numbers and address fingerprints, in
// typed arrays) and its body: parsed rows kept in flight would be promoted to
// V8's old generation. A refused row's cells are read again at the end (failures.ts).
import type { ImportFlags } from '../api/subscribers.js';
import { fingerprint } from './address-set.js';
import type { ImportEntry } from './rows.js';

/** service-spec.md "Import request" and "Limits": 1 to 1000 entries per call (209 above). */
export const MAX_BATCH_SIZE = 1000;

/** Entries stringified at once: a piece stays below V8's large-object size. */
const PIECE_ENTRIES = 200;
const BODY_HEAD = '{"Subscribers":[';

/** The end of every body: the import request's booleans, always sent (CLI.md "Import options"). */
function bodyTail(flags: ImportFlags): string {
  return `],"Resubscribe":${flags.Resubscribe},"QueueSubscriptionBasedAutoResponders":${flags.QueueSubscriptionBasedAutoResponders},"RestartSubscriptionBasedAutoresponders":${flags.RestartSubscriptionBasedAutoresponders}}`;
}

export class Batch {
  private entries: ImportEntry[] = [];
  private pieces: string[] = [];
  private bytes = 0;
  /** The parsed rows, kept only for a batch the journal says was acknowledged (its failures are written from them). */
  private rows: string[][] | undefined;
  readonly lines: Uint32Array;
  /** [h1, h2] of each row's address (AddressSet). */
  private readonly fingerprints: Uint32Array;
  private count = 0;
  retries = 0;

  constructor(
    /** From 0, in file order: the same file and options give the same batches (the journal relies on it). */
    readonly index: number,
    capacity: number,
    /** A batch replayed from the journal keeps its parsed rows. */
    keepRows = false,
  ) {
    this.lines = new Uint32Array(capacity);
    this.fingerprints = new Uint32Array(capacity * 2);
    if (keepRows) this.rows = [];
  }

  get size(): number {
    return this.count;
  }

  add(entry: ImportEntry, record: string[], line: number, fingerprints: Uint32Array, at: number): void {
    const i = this.count++;
    this.lines[i] = line;
    this.fingerprints[2 * i] = fingerprints[at]!;
    this.fingerprints[2 * i + 1] = fingerprints[at + 1]!;
    this.rows?.push(record);
    this.entries.push(entry);
    if (this.entries.length === PIECE_ENTRIES) this.stringifyEntries();
  }

  records(): readonly string[][] {
    if (!this.rows) throw new Error('Batch: rows were not kept');
    return this.rows;
  }

  /**
   * The request body (service-spec.md "Import request") as UTF-8 bytes, from
   * pieces stringified as entries come: a whole body as one string would be a
   * large object, freed only by full collections; pieces die young and the
   * Buffer lives outside the heap.
   */
  body(flags: ImportFlags): Buffer {
    if (this.entries.length) this.stringifyEntries();
    const tail = bodyTail(flags);
    const body = Buffer.allocUnsafe(BODY_HEAD.length + this.bytes + Math.max(0, this.pieces.length - 1) + tail.length);
    let at = body.write(BODY_HEAD, 0, 'latin1');
    for (let p = 0; p < this.pieces.length; p++) {
      if (p > 0) body[at++] = 0x2c; // ,
      at += body.write(this.pieces[p]!, at);
    }
    body.write(tail, at, 'latin1');
    this.release();
    return body;
  }

  release(): void {
    this.entries = [];
    this.pieces = [];
    this.rows = undefined;
  }

  private stringifyEntries(): void {
    const piece = JSON.stringify(this.entries).slice(1, -1); // without [ and ]
    this.pieces.push(piece);
    this.bytes += Buffer.byteLength(piece);
    this.entries = [];
  }

  /** The positions of the rows whose address the service named (trimmed, case ignored), each once. */
  positionsOf(addresses: readonly string[]): (number | undefined)[] {
    const probe = new Uint32Array(2);
    const taken = new Set<number>();
    return addresses.map((address) => {
      fingerprint(address.trim(), probe, 0);
      for (let i = 0; i < this.count; i++) {
        if (this.fingerprints[2 * i] === probe[0] && this.fingerprints[2 * i + 1] === probe[1] && !taken.has(i)) {
          taken.add(i);
          return i;
        }
      }
      return undefined;
    });
  }
}

/** The batches stage: unique rows, in file order, into batches of --batch-size. */
export class Batcher {
  private current: Batch | undefined;
  private formed = 0;

  constructor(
    private readonly size: number,
    /** A batch the journal already holds keeps its parsed rows: its failures are written from them. */
    private readonly keepRows: (index: number) => boolean,
    private readonly onBatch: (batch: Batch) => void,
  ) {}

  add(entry: ImportEntry, record: string[], line: number, fingerprints: Uint32Array, at: number): void {
    const batch = (this.current ??= new Batch(this.formed, this.size, this.keepRows(this.formed++)));
    batch.add(entry, record, line, fingerprints, at);
    if (batch.size === this.size) this.flush();
  }

  /** At the end of the file: the batch being filled, if any. */
  flush(): void {
    const batch = this.current;
    if (!batch) return;
    this.current = undefined;
    this.onBatch(batch);
  }
}
