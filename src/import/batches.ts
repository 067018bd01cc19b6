// One batch of an import: up to --batch-size accepted rows. A batch keeps
// only what it takes to give each row its outcome: the line numbers and the
// 64-bit address fingerprints (to find the rows the service's FailureDetails
// name), in typed arrays, and its body. The parsed rows are let go at once: a
// million-row import that kept the cells of the batches in flight promoted
// ~2 MB to V8's old generation at every young collection and peaked 40 MB
// higher. The cells of a row the service refuses are read again from the
// file at the end (failures.ts, --failures only).
import type { ImportFlags } from '../api/subscribers.js';
import { fingerprint } from './address-set.js';
import type { ImportEntry } from './rows.js';

/** service-spec.md "Import request" and "Limits": 1 to 1000 entries per call (209 above). */
export const MAX_BATCH_SIZE = 1000;

/** Entries stringified at once: ≈ 45 KB of JSON, below V8's large-object size (128 KiB). */
const PIECE_ENTRIES = 200;
const BODY_HEAD = '{"Subscribers":[';

/** The end of every body: the import request's booleans, always sent (CLI.md "Import options"). */
function bodyTail(flags: ImportFlags): string {
  return `],"Resubscribe":${flags.Resubscribe},"QueueSubscriptionBasedAutoResponders":${flags.QueueSubscriptionBasedAutoResponders},"RestartSubscriptionBasedAutoresponders":${flags.RestartSubscriptionBasedAutoresponders}}`;
}

export class Batch {
  /** Entries not yet stringified; every PIECE_ENTRIES of them become one piece of JSON at once. */
  private entries: ImportEntry[] = [];
  private pieces: string[] = [];
  private bytes = 0;
  /** The parsed rows, kept only for a batch the journal says was acknowledged (its failures are written from them). */
  private rows: string[][] | undefined;
  readonly lines: Uint32Array;
  /** [h1, h2] of each row's address, as AddressSet computed them. */
  private readonly fingerprints: Uint32Array;
  private count = 0;
  retries = 0;

  constructor(
    /** Position in the file, from 0: batches are formed in file order, so the same file and options give the same batches. */
    readonly index: number,
    capacity: number,
    /** Keep the parsed rows (a batch replayed from the journal); otherwise only lines and fingerprints stay. */
    keepRows = false,
  ) {
    this.lines = new Uint32Array(capacity);
    this.fingerprints = new Uint32Array(capacity * 2);
    if (keepRows) this.rows = [];
  }

  get size(): number {
    return this.count;
  }

  /** `fingerprints[at]`, `[at + 1]`: the row's address fingerprint. */
  add(entry: ImportEntry, record: string[], line: number, fingerprints: Uint32Array, at: number): void {
    const i = this.count++;
    this.lines[i] = line;
    this.fingerprints[2 * i] = fingerprints[at]!;
    this.fingerprints[2 * i + 1] = fingerprints[at + 1]!;
    this.rows?.push(record);
    this.entries.push(entry);
    if (this.entries.length === PIECE_ENTRIES) this.stringifyEntries();
  }

  /** The parsed rows of a batch made with keepRows. */
  records(): readonly string[][] {
    if (!this.rows) throw new Error('Batch: rows were not kept');
    return this.rows;
  }

  /**
   * The request body (service-spec.md "Import request") as UTF-8 bytes.
   * Entries are stringified PIECE_ENTRIES at a time as they come (so an
   * entry and its row are garbage within 200 rows, not 1000) and the pieces
   * written into one Buffer: a whole 1000-entry body as one string
   * (≈ 230 KB) would be a large object in V8's heap, freed only by full
   * collections, and a million-row import made a thousand of them; pieces
   * die young and the Buffer lives outside the heap.
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

  /** Lets go of everything but the lines and fingerprints. */
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

/**
 * The batches stage: unique rows in file order → batches of --batch-size,
 * numbered from 0, so the same file and options always give the same batches
 * (the journal relies on it).
 */
export class Batcher {
  private current: Batch | undefined;
  private formed = 0;

  constructor(
    private readonly size: number,
    /** Whether a batch keeps its parsed rows (one the journal already holds: its failures are written from them). */
    private readonly keepRows: (index: number) => boolean,
    private readonly onBatch: (batch: Batch) => void,
  ) {}

  add(entry: ImportEntry, record: string[], line: number, fingerprints: Uint32Array, at: number): void {
    const batch = (this.current ??= new Batch(this.formed, this.size, this.keepRows(this.formed++)));
    batch.add(entry, record, line, fingerprints, at);
    if (batch.size === this.size) this.flush();
  }

  /** Passes on the batch being filled, if any (at the end of the file). */
  flush(): void {
    const batch = this.current;
    if (!batch) return;
    this.current = undefined;
    this.onBatch(batch);
  }
}
