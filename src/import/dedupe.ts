// The duplicates stage: rows wait in groups so the address look-ups run as
// one tight loop (address-set.ts), then leave in file order (rejected rows
// too, so every outcome is reported in line order).
import { AddressSet, GROUP_SIZE } from './address-set.js';
import type { ImportEntry } from './rows.js';

interface DedupeSink {
  rejected(record: string[], line: number, code: string, message: string): void;
  duplicate(record: string[], line: number): void;
  /** `fingerprints[at]`, `[at + 1]`: the address's fingerprint, valid during the call. */
  unique(entry: ImportEntry, record: string[], line: number, fingerprints: Uint32Array, at: number): void;
}

/** Rows waiting, at most: rejected rows take no address slot, but wait too. */
const MAX_PENDING = 4 * GROUP_SIZE;

export class Dedupe {
  private readonly addresses: AddressSet;
  // Per waiting row: an entry, or for a rejected row [code, message, its valid address was staged].
  private readonly entries: (ImportEntry | undefined)[] = [];
  private readonly reasons: ([string, string, boolean] | undefined)[] = [];
  private readonly records: string[][] = [];
  private readonly lines: number[] = [];
  private readonly isNew = new Uint8Array(GROUP_SIZE);

  constructor(
    expectedRows: number,
    private readonly sink: DedupeSink,
  ) {
    this.addresses = new AddressSet(expectedRows);
  }

  add(entry: ImportEntry, email: string, record: string[], line: number): void {
    this.addresses.stage(email);
    this.entries.push(entry);
    this.reasons.push(undefined);
    this.wait(record, line);
  }

  /**
   * A row refused before sending. Its valid address is looked up, not added:
   * a repeat of an address already sent is a duplicate, so fixing it in the
   * failures file cannot overwrite the imported row (CLI.md "--failures");
   * a later valid row of it is still sent.
   */
  reject(record: string[], line: number, code: string, message: string, email = ''): void {
    this.entries.push(undefined);
    this.reasons.push([code, message, email !== '']);
    if (email !== '') this.addresses.stage(email, true);
    this.wait(record, line);
  }

  flush(): void {
    if (this.entries.length === 0) return;
    this.addresses.addStaged(this.isNew);
    const fingerprints = this.addresses.groupFingerprints;
    const sink = this.sink;
    let staged = 0;
    for (let i = 0; i < this.entries.length; i++) {
      const reason = this.reasons[i];
      if (reason) {
        if (reason[2] && this.isNew[staged++] === 0) sink.duplicate(this.records[i]!, this.lines[i]!);
        else sink.rejected(this.records[i]!, this.lines[i]!, reason[0], reason[1]);
        continue;
      }
      const at = staged++;
      if (this.isNew[at] === 0) sink.duplicate(this.records[i]!, this.lines[i]!);
      else sink.unique(this.entries[i]!, this.records[i]!, this.lines[i]!, fingerprints, 2 * at);
    }
    this.entries.length = 0;
    this.reasons.length = 0;
    this.records.length = 0;
    this.lines.length = 0;
  }

  private wait(record: string[], line: number): void {
    this.records.push(record);
    this.lines.push(line);
    if (this.addresses.stagedSize === GROUP_SIZE || this.entries.length >= MAX_PENDING) this.flush();
  }
}
