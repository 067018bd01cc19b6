// The tally owns the counts and gives each row its one outcome (CLI.md
// "Import guarantees"), so that rows = new + existing + failed + rejected + duplicates.
import type { Batch } from './batches.js';
import type { FailureOutcome, FailuresFile } from './failures.js';
import type { BatchRecord } from './journal.js';
import type { LeftOutValues } from './partial.js';
import { duplicateMessage, LISTED_DUPLICATE } from './rows.js';
import { STATUS_CODES } from './status-columns.js';

export interface ImportProgress {
  rowsRead: number;
  /** An upper bound. */
  totalRows?: number;
  bytesRead: number;
  totalBytes: number;
  inFlight: number;
  retries: number;
  batchesDone: number;
  elapsedMs: number;
}

export interface RowProblem {
  line: number;
  outcome: FailureOutcome;
  code: string;
  message: string;
  email: string;
}

interface ServiceTotals {
  TotalUniqueEmailsSubmitted: number;
  TotalExistingSubscribers: number;
  TotalNewSubscribers: number;
}

/** The --json summary (CLI.md "Import guarantees"). */
export interface ImportSummary {
  rows: number;
  new: number;
  existing: number;
  failed: number;
  rejected: number;
  duplicates: number;
  /** Rows imported without a value that cannot be sent: counted in new or existing too, not in the rows sum. */
  partial: number;
  /** Of the duplicates: rows a failures file lists as duplicates (CLI.md "--failures"). */
  duplicatesFromFailuresFile: number;
  /** Of the rejected: rows the file marks unsubscribed or without permission. */
  skipped: number;
  batches: number;
  retries: number;
  /** Answers 429, each retried after the shared pause (CLI.md "flow control"). */
  rateLimited: number;
  waitedMs: number;
  elapsedMs: number;
  resumed: boolean;
  service: ServiceTotals;
  /** Every row of the file has its outcome (false after Ctrl-C or a stop). */
  complete: boolean;
  dryRun: boolean;
  wouldSend?: number;
  resumedBatches: number;
  /** Failed after the retries: --resume sends them again. */
  unacknowledgedBatches: number;
  /** Rows read but left without an outcome by a stop: --resume sends them. */
  unfinished: number;
  blankLines: number;
  /** An empty Name empties a stored name (CLI.md "Names"). */
  emptyNames: number;
  codes: Record<string, number>;
  rowsPerSecond: number;
  input: string;
  list: string;
  delimiter: string;
  encoding: string;
  failuresFile?: string;
  journal?: string;
  stoppedBy?: string;
}

interface TallyOptions {
  emailColumn: number;
  failures?: FailuresFile;
  leftOut?: LeftOutValues;
  onProblem?(problem: RowProblem): void;
  onProgress?(progress: ImportProgress): void;
  gauges(): { inFlight: number; bytesRead: number; totalBytes: number; totalRows?: number };
}

/** At most one progress report per this many ms, unless a batch finished. */
const PROGRESS_INTERVAL_MS = 100;

export class Tally {
  private readonly started = performance.now();
  rowsRead = 0;
  blankLines = 0;
  retries = 0;
  private readonly counts = { new: 0, existing: 0, failed: 0, rejected: 0, duplicates: 0 };
  private duplicatesFromFailuresFile = 0;
  private skipped = 0;
  private readonly service: ServiceTotals = { TotalUniqueEmailsSubmitted: 0, TotalExistingSubscribers: 0, TotalNewSubscribers: 0 };
  private readonly codes: Record<string, number> = {};
  private batchesDone = 0;
  private resumedBatches = 0;
  private unacknowledged = 0;
  private wouldSend = 0;
  private lastProgress = 0;

  constructor(private readonly o: TallyOptions) {}

  get unacknowledgedBatches(): number {
    return this.unacknowledged;
  }

  /** Waiting for a batch, in flight, or left so by a stop. */
  get rowsWithoutOutcome(): number {
    const c = this.counts;
    return this.rowsRead - (c.new + c.existing + c.failed + c.rejected + c.duplicates + this.wouldSend);
  }

  rowRead(): void {
    if ((++this.rowsRead & 1023) === 0) this.progress(false);
  }

  rejected(record: readonly string[], line: number, code: string, message: string): void {
    if (code === LISTED_DUPLICATE) {
      // Written to --failures as a duplicate again, so the round trip repeats.
      this.counts.duplicates++;
      this.duplicatesFromFailuresFile++;
      this.problem(record, line, 'duplicate', 'duplicate', message);
      return;
    }
    this.counts.rejected++;
    if (STATUS_CODES.has(code)) {
      this.skipped++;
      this.problem(record, line, 'skipped', code, message);
      return;
    }
    this.problem(record, line, 'rejected', code, message);
  }

  duplicate(record: readonly string[], line: number): void {
    this.o.leftOut?.take(line);
    this.counts.duplicates++;
    this.problem(record, line, 'duplicate', 'duplicate', duplicateMessage((record[this.o.emailColumn] ?? '').trim()));
  }

  /** Sent now (`emails`: as the service named its refused rows), or from an earlier run's journal (`rows` at hand). */
  acknowledged(batch: Batch, record: BatchRecord, rows?: readonly string[][], emails?: readonly string[]): void {
    this.counts.new += record.new;
    this.counts.existing += record.existing;
    this.counts.failed += record.failed;
    this.service.TotalUniqueEmailsSubmitted += record.service[0];
    this.service.TotalExistingSubscribers += record.service[1];
    this.service.TotalNewSubscribers += record.service[2];
    this.batchesDone++;
    record.failures.forEach(([position, code, message], k) => {
      const line = batch.lines[position] ?? 0;
      if (rows) this.problem(rows[position] ?? [], line, 'failed', code, message);
      else this.failedLater(line, code, message, emails?.[k] ?? '');
    });
    if (this.o.leftOut?.pending) this.partialRows(batch, new Set(record.failures.map((f) => f[0])), rows);
    this.progress(true);
  }

  /** Written to --failures as `partial`. */
  private partialRows(batch: Batch, failed: ReadonlySet<number>, rows?: readonly string[][]): void {
    const leftOut = this.o.leftOut!;
    for (let p = 0; p < batch.size; p++) {
      const line = batch.lines[p]!;
      const values = leftOut.take(line);
      if (!values || failed.has(p)) continue;
      const [code, message] = leftOut.imported(values);
      const record = rows?.[p];
      if (record) this.o.failures?.write(record, line, 'partial', code, message);
      else this.o.failures?.later(line, code, message, 'partial');
      this.o.onProblem?.({ line, outcome: 'partial', code, message, email: record ? (record[this.o.emailColumn] ?? '').trim() : '' });
    }
  }

  resumed(batch: Batch, record: BatchRecord): void {
    this.retries += record.retries;
    this.resumedBatches++;
    this.acknowledged(batch, record, batch.records());
  }

  /** Every row of it failed, with the error's code. */
  failed(batch: Batch, code: string, message: string): void {
    this.counts.failed += batch.size;
    this.unacknowledged++;
    this.batchesDone++;
    for (let i = 0; i < batch.size; i++) {
      this.o.leftOut?.take(batch.lines[i]!);
      this.failedLater(batch.lines[i]!, code, message, '');
    }
    this.progress(true);
  }

  wouldSendBatch(batch: Batch, rows?: readonly string[][]): void {
    this.wouldSend += batch.size;
    this.batchesDone++;
    if (this.o.leftOut?.pending) this.partialRows(batch, new Set(), rows);
    this.progress(false);
  }

  progress(force: boolean): void {
    const report = this.o.onProgress;
    if (!report) return;
    const now = performance.now();
    if (!force && now - this.lastProgress < PROGRESS_INTERVAL_MS) return;
    this.lastProgress = now;
    const { inFlight, bytesRead, totalBytes, totalRows } = this.o.gauges();
    report({ rowsRead: this.rowsRead, totalRows, bytesRead, totalBytes, inFlight, retries: this.retries, batchesDone: this.batchesDone, elapsedMs: now - this.started });
  }

  summary(
    end: Pick<ImportSummary, 'complete' | 'dryRun' | 'resumed' | 'input' | 'list' | 'delimiter' | 'encoding' | 'failuresFile' | 'journal' | 'stoppedBy'> & {
      flow?: Pick<ImportSummary, 'rateLimited' | 'waitedMs'>;
      emptyNames?: number;
    },
  ): ImportSummary {
    const c = this.counts;
    const outcomes = c.new + c.existing + c.failed + c.rejected + c.duplicates;
    const elapsedMs = Math.round(performance.now() - this.started);
    return {
      rows: outcomes + (end.dryRun ? this.wouldSend : 0),
      ...c,
      partial: this.o.leftOut?.rows ?? 0,
      duplicatesFromFailuresFile: this.duplicatesFromFailuresFile,
      skipped: this.skipped,
      batches: this.batchesDone,
      retries: this.retries,
      rateLimited: end.flow?.rateLimited ?? 0,
      waitedMs: end.flow?.waitedMs ?? 0,
      elapsedMs,
      resumed: end.resumed,
      service: { ...this.service },
      complete: end.complete,
      dryRun: end.dryRun,
      ...(end.dryRun ? { wouldSend: this.wouldSend } : {}),
      resumedBatches: this.resumedBatches,
      unacknowledgedBatches: this.unacknowledged,
      unfinished: end.dryRun ? 0 : Math.max(0, this.rowsRead - outcomes),
      blankLines: this.blankLines,
      emptyNames: end.emptyNames ?? 0,
      codes: { ...this.codes },
      rowsPerSecond: elapsedMs > 0 ? Math.round((this.rowsRead * 1000) / elapsedMs) : 0,
      input: end.input,
      list: end.list,
      delimiter: end.delimiter,
      encoding: end.encoding,
      ...(end.failuresFile ? { failuresFile: end.failuresFile } : {}),
      ...(end.journal ? { journal: end.journal } : {}),
      ...(end.stoppedBy && !end.complete ? { stoppedBy: end.stoppedBy } : {}),
    };
  }

  private problem(record: readonly string[], line: number, outcome: FailureOutcome, code: string, message: string): void {
    this.codes[code] = (this.codes[code] ?? 0) + 1;
    this.o.failures?.write(record, line, outcome, code, message);
    this.o.onProblem?.({ line, outcome, code, message, email: (record[this.o.emailColumn] ?? '').trim() });
  }

  /** Its cells are gone: written to --failures at the end (failures.ts). */
  private failedLater(line: number, code: string, message: string, email: string): void {
    this.codes[code] = (this.codes[code] ?? 0) + 1;
    this.o.failures?.later(line, code, message);
    this.o.onProblem?.({ line, outcome: 'failed', code, message, email });
  }
}
