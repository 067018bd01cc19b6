// The import pipeline, streaming end to end:
//   file → structure check → csv-parse → mapping → row checks → duplicates →
//   batches → up to --concurrency requests in flight → outcomes.
// Memory does not grow with the file: the parser is paused while the batches
// in flight fill every slot, outcomes become counters (rows the service or the
// checks refused stream to the --failures file), and duplicate detection
// keeps 64-bit fingerprints (address-set.ts).
//
// Every data row ends in exactly one outcome (CLI.md "Import guarantees"):
// new, existing, failed (at the service, with its code), rejected (before
// sending, with the reason) or duplicate. runImport() prints nothing; it
// reports through hooks and returns the summary.
import { stat } from 'node:fs/promises';
import { importBatch, importPath, type ImportFlags } from '../api/subscribers.js';
import { ApiError, AuthError, NetworkError, TimeoutError, UsageError } from '../core/errors.js';
import type { ApiClient } from '../core/http.js';
import { importResult, type ImportResult } from '../schemas/subscribers.js';
import { toInt } from '../schemas/common.js';
import type { Consent } from '../validation/subscriber-fields.js';
import { AddressSet, GROUP_SIZE } from './address-set.js';
import { Batch } from './batches.js';
import { describeDelimiter, openRecords, parseFailure, readFirstRecord, sniffDelimiter, type RecordSource } from './csv-source.js';
import { FailuresWriter, refuseFailuresClash, type FailureOutcome } from './failures.js';
import { scanChunks, type ImportInput } from './input.js';
import { JournalError, JournalWriter, journalMismatch, loadJournal, type BatchRecord, type JournalOptions } from './journal.js';
import { planMapping, type ColumnPlan, type MappingPlan } from './mapping.js';
import { BLANK, RowBuilder, type ImportEntry } from './row-builder.js';
import { lineAt, scanStructure, structureError } from './structure-check.js';

export interface ImportOptions {
  input: ImportInput;
  listId: string;
  /** `--map Column=Target` values. */
  map: string[];
  consent?: Consent;
  flags: ImportFlags;
  batchSize: number;
  concurrency: number;
  /** `--delimiter`; sniffed from the head when undefined. */
  delimiter?: string;
  multiSeparator?: string;
  dryRun: boolean;
  failuresPath?: string;
  /** Undefined: no journal (stdin without --journal, --dry-run). */
  journalPath?: string;
  resume: boolean;
  /** Per request (imports get minutes: DEFAULT_IMPORT_TIMEOUT_MS). */
  timeoutMs: number;
}

export interface ImportProgress {
  rowsRead: number;
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

export interface BatchDone {
  index: number;
  rows: number;
  acknowledged: boolean;
  /** From the journal of an earlier run (--resume): not sent again. */
  fromJournal: boolean;
}

export interface PlanReport {
  delimiter: string;
  encoding: string;
  columns: ColumnPlan[];
  header: string[];
}

export interface ImportHooks {
  /** Needed unless dryRun. */
  client?: ApiClient;
  /** The mapping, once the header is read (before any request). */
  onPlan?(plan: PlanReport): void;
  onProgress?(progress: ImportProgress): void;
  onBatchDone?(batch: BatchDone): void;
  /** Every row that was not imported, as soon as its outcome is known. */
  onProblem?(problem: RowProblem): void;
  /** Things worth telling that are not row outcomes. */
  onNotice?(message: string): void;
  /** --dry-run: the request that would be sent first. */
  onFirstRequest?(request: { method: 'POST'; path: string; body: unknown }): void;
  /** First Ctrl-C: stop reading, let the batches in flight finish. */
  stopSignal?: AbortSignal;
  /** Second Ctrl-C: give up on the batches in flight too. */
  abandonSignal?: AbortSignal;
}

export interface ServiceTotals {
  TotalUniqueEmailsSubmitted: number;
  TotalExistingSubscribers: number;
  TotalNewSubscribers: number;
}

/** The --json summary (CLI.md "Import guarantees"): rows = new + existing + failed + rejected + duplicates. */
export interface ImportSummary {
  rows: number;
  new: number;
  existing: number;
  failed: number;
  rejected: number;
  duplicates: number;
  batches: number;
  retries: number;
  elapsedMs: number;
  resumed: boolean;
  service: ServiceTotals;
  /** Every row of the file has its outcome (false after Ctrl-C or a stop). */
  complete: boolean;
  dryRun: boolean;
  /** --dry-run: rows that would be sent. */
  wouldSend?: number;
  /** Batches taken from the journal of an earlier run, not sent again. */
  resumedBatches: number;
  /** Batches whose request failed after the retries (not acknowledged): --resume sends them again. */
  unacknowledgedBatches: number;
  /** Rows read but left without an outcome when the import stopped: --resume sends them. */
  unfinished: number;
  /** Lines whose cells were all empty: skipped, not rows. */
  blankLines: number;
  /** Rows not imported, by code ("duplicate" for duplicates). */
  codes: Record<string, number>;
  rowsPerSecond: number;
  input: string;
  list: string;
  delimiter: string;
  encoding: string;
  failuresFile?: string;
  journal?: string;
  /** Why the import stopped early. */
  stoppedBy?: string;
}

export interface ImportOutcome {
  summary: ImportSummary;
  /** The error that stopped the import (a 401, a parse failure): the caller reports it after the summary. */
  error?: Error;
  interrupted: boolean;
}

/** Batch errors that every batch would meet: the import stops at once rather than fail them one by one. */
function stopsEverything(error: unknown): boolean {
  if (error instanceof AuthError) return true; // 401, 403
  if (error instanceof ApiError) {
    if (error.status === 404) return true; // the list does not exist
    // service-spec.md "Coded errors by area": batch too large, empty, consent missing or invalid.
    return error.code === 209 || error.code === 212 || error.code === 214 || error.code === 215;
  }
  return error instanceof JournalError;
}

/** Rows waiting for duplicate detection, at most (rejected rows count here but are not staged). */
const MAX_PENDING = 4 * GROUP_SIZE;

/** A service that keeps failing after retries (down, or refusing every batch) stops the import after this many batches in a row. */
export const CONSECUTIVE_FAILURES_LIMIT = 5;

function transportFailure(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && (error.status >= 500 || error.status === 429));
}

function errorCode(error: unknown): string {
  if (error instanceof ApiError) return error.code !== undefined ? String(error.code) : `http-${error.status}`;
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof NetworkError) return 'network';
  return 'error';
}

export async function runImport(options: ImportOptions, hooks: ImportHooks = {}): Promise<ImportOutcome> {
  return new ImportRun(options, hooks).run();
}

class ImportRun {
  private readonly started = performance.now();
  private delimiter = ',';
  private plan!: MappingPlan;
  private header: string[] = [];
  private builder!: RowBuilder;
  private addresses!: AddressSet;
  // Rows that passed the checks, waiting for duplicate detection as a group (address-set.ts).
  private readonly pendingEntries: (ImportEntry | undefined)[] = [];
  private readonly pendingReasons: ([string, string] | undefined)[] = [];
  private readonly pendingRecords: string[][] = [];
  private readonly pendingLines: number[] = [];
  private readonly isNew = new Uint8Array(GROUP_SIZE);
  private records!: RecordSource;
  private failures: FailuresWriter | undefined;
  private journal: JournalWriter | undefined;
  private journaled = new Map<number, BatchRecord>();
  private countLineBreaks = false;
  private carriageReturns = true;

  // Reading.
  private nextLine = 2;
  private rowsRead = 0;
  private blankLines = 0;
  private current: Batch | undefined;
  private batchCount = 0;
  /** Formed batches without a free slot yet (one, or two when a group of pending rows fills more than one batch). */
  private readonly waiting: Batch[] = [];
  private inFlight = 0;
  private waitingForDrain = false;
  private readingDone = false;
  private stopping = false;
  private lastProgress = 0;
  private finish!: () => void;

  // Outcomes.
  private readonly counts = { new: 0, existing: 0, failed: 0, rejected: 0, duplicates: 0 };
  private readonly service: ServiceTotals = { TotalUniqueEmailsSubmitted: 0, TotalExistingSubscribers: 0, TotalNewSubscribers: 0 };
  private readonly codes: Record<string, number> = {};
  private batchesDone = 0;
  private resumedBatches = 0;
  private unacknowledged = 0;
  private retries = 0;
  private consecutiveFailures = 0;
  private abandonedRows = 0;
  /** Aborts the requests in flight: a second Ctrl-C, or an error every batch would meet (a refused key). */
  private readonly halt = new AbortController();
  /** Batches acknowledged in this run (with those of the journal: whether the journal is worth keeping). */
  private acknowledgedNow = 0;
  private wouldSend = 0;
  private firstRequestShown = false;
  private error: Error | undefined;
  private stoppedBy: string | undefined;
  private unmatchedFailures = 0;
  // Rows the service refused, for --failures at the end: their lines and [code, message].
  private readonly laterLines: number[] = [];
  private readonly laterReasons: [string, string][] = [];

  constructor(
    private readonly o: ImportOptions,
    private readonly hooks: ImportHooks,
  ) {}

  async run(): Promise<ImportOutcome> {
    const { input } = this.o;
    const abandon = this.hooks.abandonSignal;
    const onAbandon = () => this.halt.abort();
    if (abandon?.aborted) this.halt.abort();
    else abandon?.addEventListener('abort', onAbandon, { once: true });
    try {
      return await this.runSteps();
    } finally {
      abandon?.removeEventListener('abort', onAbandon);
    }
  }

  private async runSteps(): Promise<ImportOutcome> {
    const { input } = this.o;
    try {
      if (this.o.failuresPath) await refuseFailuresClash(this.o.failuresPath, input, this.o.dryRun ? undefined : this.o.journalPath);
      this.delimiter = this.o.delimiter ?? sniffDelimiter(input.head);
      await this.checkStructure();
      this.records = openRecords(input, this.delimiter, this.carriageReturns);
      let header: string[] | undefined;
      try {
        header = await readFirstRecord(this.records.parser);
      } catch (err) {
        throw parseFailure(input.name, err);
      }
      if (header === undefined || (header.length === 1 && header[0]!.trim() === '')) {
        const error = new UsageError(`${input.name} is empty: there is no header row`);
        error.hint = 'The first line names the columns, e.g. "email,name"; nothing was sent.';
        throw error;
      }
      this.header = header;
      this.nextLine = 2 + (this.countLineBreaks ? lineBreaksIn(header) : 0);
      this.plan = planMapping(header, this.o.map, input.name);
      this.builder = new RowBuilder(this.plan, { consent: this.o.consent, multiSeparator: this.o.multiSeparator });
      this.addresses = new AddressSet(estimateRows(input));
      this.hooks.onPlan?.({ delimiter: this.delimiter, encoding: input.encoding, columns: this.plan.columns, header });
      if (!this.o.dryRun && !this.hooks.client) throw new Error('runImport needs a client unless dryRun');
      await this.openJournal();
      if (this.o.failuresPath) {
        this.failures = await FailuresWriter.open(this.o.failuresPath, header, this.delimiter, input.bomBytes > 0 && input.encoding === 'utf8');
      }
      await this.pipeline();
    } catch (err) {
      this.records?.close();
      await this.closeFiles(false).catch(() => undefined);
      throw err;
    }
    const complete = !this.stopping && this.readingDone;
    const allAcknowledged = complete && this.unacknowledged === 0;
    const change = await inputChange(this.o.input);
    if (change) {
      this.hooks.onNotice?.(
        `${this.o.input.name} changed while it was being imported (${change}): rows read after the change may not be the rows checked before sending, ` +
          'nor the rows the failures file shows; import a copy that nothing writes to',
      );
    }
    try {
      await this.writeLaterFailures();
    } catch (err) {
      this.error ??= err as Error;
    }
    await this.closeFiles(allAcknowledged);
    return { summary: this.summary(complete), error: this.error, interrupted: this.hooks.stopSignal?.aborted === true && !this.error };
  }

  // ---- before the first request -------------------------------------------------

  /** The whole file is checked before anything is sent (structure-check.ts). */
  private async checkStructure(): Promise<void> {
    const { input } = this.o;
    const delimiter = this.delimiter.charCodeAt(0);
    const report = await scanStructure(scanChunks(input), delimiter, input.encoding === 'utf8');
    if ('kind' in report) {
      const line = await lineAt(scanChunks(input), report.offset);
      throw structureError(input.name, report, line);
    }
    this.countLineBreaks = report.quotedLineBreaks;
    this.carriageReturns = report.carriageReturns;
  }

  private journalOptions(): JournalOptions {
    return {
      list: this.o.listId.toLowerCase(),
      batchSize: this.o.batchSize,
      consent: this.o.consent ?? null,
      resubscribe: this.o.flags.Resubscribe,
      queueAutoresponders: this.o.flags.QueueSubscriptionBasedAutoResponders,
      restartAutoresponders: this.o.flags.RestartSubscriptionBasedAutoresponders,
      delimiter: this.delimiter,
      encoding: this.o.input.encoding,
      multiSeparator: this.o.multiSeparator ?? null,
      mapping: this.plan.columns.map((c) => (c.target === 'CustomField' ? `field:${c.key}` : c.target === 'ignore' ? '-' : c.target)),
    };
  }

  private async openJournal(): Promise<void> {
    const path = this.o.journalPath;
    if (this.o.dryRun || !path) return;
    const { input } = this.o;
    const options = this.journalOptions();
    let loaded;
    try {
      loaded = await loadJournal(path);
    } catch (err) {
      if (err instanceof JournalError) throw hint(new UsageError(err.message), 'Delete it, or choose another file with --journal.');
      throw err;
    }
    // A journal that records no acknowledged batch has nothing to resume: it never
    // blocks a new run, which replaces it (CLI.md "--journal / --resume").
    const nothingAcknowledged = loaded !== undefined && loaded.batches.size === 0;
    if (nothingAcknowledged) loaded = undefined;
    if (loaded) {
      if (!this.o.resume) {
        throw hint(
          new UsageError(`an unfinished import's journal exists: ${path} (${loaded.batches.size} batches acknowledged)`),
          'Run again with --resume to continue it, or delete the journal to start over. Nothing was sent.',
        );
      }
      const differences = journalMismatch(loaded.header, input.identity, options);
      if (differences.length) {
        throw hint(
          new UsageError(`the journal ${path} does not match this import: ${differences.join('; ')}`),
          'Resume with the same file and options, or delete the journal to start over. Nothing was sent.',
        );
      }
      this.journaled = loaded.batches;
      this.journal = await JournalWriter.reopen(path, loaded.validLength);
      return;
    }
    if (this.o.resume) {
      this.hooks.onNotice?.(
        nothingAcknowledged ? `the journal ${path} records no acknowledged batch: starting from the beginning` : `no journal at ${path}: starting from the beginning`,
      );
    }
    try {
      this.journal = await JournalWriter.create(path, {
        kind: 'email-import-journal',
        version: 1,
        input: { name: input.name, ...input.identity },
        options,
        createdAt: new Date().toISOString(),
      });
    } catch (err) {
      throw hint(
        new UsageError(`cannot create the journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`),
        'Choose a writable place with --journal <file>. Nothing was sent.',
      );
    }
  }

  // ---- the pipeline ---------------------------------------------------------------

  private pipeline(): Promise<void> {
    const { parser } = this.records;
    return new Promise<void>((resolve) => {
      this.finish = resolve;
      const stop = () => this.stop();
      this.hooks.stopSignal?.addEventListener('abort', stop, { once: true });
      if (this.hooks.stopSignal?.aborted) this.stop();
      const ended = () => {
        if (this.readingDone) return;
        this.readingDone = true;
        if (!this.stopping && this.pendingEntries.length) this.takePending();
        if (!this.stopping && this.current) this.formBatch();
        this.settle();
      };
      parser.on('readable', () => this.pump());
      parser.once('end', ended);
      parser.once('error', (err) => {
        if (this.stopping) return;
        this.fail(parseFailure(this.o.input.name, err));
      });
      this.pump();
      // Reading the header may have read the last record: 'end' has then been emitted already.
      if (parser.readableEnded) ended();
    }).finally(() => {
      this.records.close();
    });
  }

  /** Reads records while there is room: no free slot for a formed batch, or a busy failures file, pause it. */
  private pump(): void {
    const parser = this.records.parser;
    while (this.waiting.length === 0 && !this.waitingForDrain && !this.stopping) {
      const record = parser.read() as string[] | null;
      if (record === null) return;
      this.onRecord(record);
    }
  }

  private onRecord(record: string[]): void {
    const line = this.nextLine;
    this.nextLine += this.countLineBreaks ? 1 + lineBreaksIn(record) : 1;
    const entry = this.builder.build(record);
    if (entry === BLANK) {
      this.blankLines++;
      return;
    }
    this.rowsRead++;
    if ((this.rowsRead & 1023) === 0) this.progress(false);
    // Rejected rows wait with the others, so every outcome is reported in line order.
    if (entry === undefined) {
      this.pendingEntries.push(undefined);
      this.pendingReasons.push([this.builder.problemCode, this.builder.problemMessage]);
    } else {
      this.addresses.stage(this.builder.email);
      this.pendingEntries.push(entry);
      this.pendingReasons.push(undefined);
    }
    this.pendingRecords.push(record);
    this.pendingLines.push(line);
    if (this.addresses.stagedSize === GROUP_SIZE || this.pendingEntries.length >= MAX_PENDING) this.takePending();
  }

  /** Duplicate detection for the pending rows as a group, then their outcomes in file order; the rows to send go into batches. */
  private takePending(): void {
    this.addresses.addStaged(this.isNew);
    const fingerprints = this.addresses.groupFingerprints;
    let staged = 0;
    for (let i = 0; i < this.pendingEntries.length; i++) {
      const record = this.pendingRecords[i]!;
      const line = this.pendingLines[i]!;
      const reason = this.pendingReasons[i];
      if (reason) {
        this.counts.rejected++;
        this.problem(record, line, 'rejected', reason[0], reason[1]);
        continue;
      }
      const at = staged++;
      if (this.isNew[at] === 0) {
        this.counts.duplicates++;
        this.problem(record, line, 'duplicate', 'duplicate', 'the address of an earlier row (case and surrounding spaces ignored): only the first is sent');
        continue;
      }
      const batch = (this.current ??= new Batch(this.batchCount, this.o.batchSize, this.journaled.has(this.batchCount++)));
      batch.add(this.pendingEntries[i]!, record, line, fingerprints, 2 * at);
      if (batch.size === this.o.batchSize) this.formBatch();
    }
    this.pendingEntries.length = 0;
    this.pendingReasons.length = 0;
    this.pendingRecords.length = 0;
    this.pendingLines.length = 0;
  }

  private formBatch(): void {
    const batch = this.current!;
    this.current = undefined;
    if (this.inFlight < this.o.concurrency && this.waiting.length === 0) this.dispatch(batch);
    else this.waiting.push(batch);
  }

  private dispatch(batch: Batch): void {
    if (this.o.dryRun) return this.dryRunBatch(batch);
    const earlier = this.journaled.get(batch.index);
    if (earlier) return this.replay(batch, earlier);
    this.inFlight++;
    this.send(batch)
      .catch((err) => this.fail(err as Error))
      .finally(() => {
        this.inFlight--;
        this.settle();
      });
  }

  /** After a batch: fill the free slot, resume reading, or finish. */
  private settle(): void {
    while (this.waiting.length && this.inFlight < this.o.concurrency && !this.stopping) this.dispatch(this.waiting.shift()!);
    if (!this.stopping && !this.readingDone) this.pump();
    if (this.inFlight === 0 && (this.stopping || (this.readingDone && this.waiting.length === 0 && !this.current))) this.finish();
  }

  /** Stops reading; batches in flight finish (Ctrl-C, or an error every batch would meet). */
  private stop(reason?: string): void {
    if (reason && !this.stoppedBy) this.stoppedBy = reason;
    if (this.stopping) return;
    this.stopping = true;
    if (!this.stoppedBy) this.stoppedBy = 'interrupted';
    this.records.close();
    this.settle();
  }

  private fail(error: Error): void {
    this.error ??= error;
    this.stop(error.message);
  }

  // ---- batch outcomes ---------------------------------------------------------------

  private async send(batch: Batch): Promise<void> {
    const client = this.hooks.client!;
    const body = batch.body(this.o.flags);
    let result: ImportResult | undefined;
    let failure: unknown;
    try {
      const answer = await importBatch(client, this.o.listId, body, {
        timeoutMs: this.o.timeoutMs,
        signal: this.halt.signal,
        onRetry: () => {
          this.retries++;
          batch.retries++;
        },
      });
      const parsed = importResult.safeParse(answer.data);
      if (parsed.success) result = parsed.data;
      else failure = new ApiError({ status: answer.status, message: 'the service answered 200 with a body that is not an import result', method: 'POST', path: importPath(this.o.listId) });
    } catch (err) {
      if (this.halt.signal.aborted) {
        // Second Ctrl-C, or another batch met an error that stops everything: the outcome is unknown;
        // not journaled, so --resume sends the batch again.
        this.abandonedRows += batch.size;
        return;
      }
      // service-spec.md "Import subscribers": 400 code 210 carries the import result in ResultData.
      const parsed = err instanceof ApiError && err.code === 210 ? importResult.safeParse(err.resultData) : undefined;
      if (parsed?.success) result = parsed.data;
      else failure = err;
    }
    if (result) this.acknowledged(batch, result);
    else this.batchFailed(batch, failure);
  }

  private acknowledged(batch: Batch, result: ImportResult): void {
    const failures: [number, string, string][] = [];
    const failureEmails: string[] = [];
    const details = result.FailureDetails ?? [];
    if (details.length) {
      const positions = batch.positionsOf(details.map((d) => d.EmailAddress ?? ''));
      details.forEach((detail, k) => {
        const position = positions[k];
        if (position === undefined) {
          this.unmatchedFailures++;
          return;
        }
        failures.push([position, detail.Code === undefined || detail.Code === null ? '' : String(detail.Code), detail.Message ?? '']);
        failureEmails.push(detail.EmailAddress ?? '');
      });
      if (this.unmatchedFailures === 1 && failures.length < details.length) {
        this.hooks.onNotice?.('the service reported a failure for an address that is not in the batch; it is not counted against any row');
      }
    }
    const service: [number, number, number] = [
      toInt(result.TotalUniqueEmailsSubmitted),
      toInt(result.TotalExistingSubscribers),
      toInt(result.TotalNewSubscribers),
    ];
    // The service gives totals, not a per-row new/existing split: the rows it
    // did not refuse are counted as new up to its TotalNewSubscribers, the
    // rest as existing, so the counts always add up to the rows.
    const accepted = batch.size - failures.length;
    const fresh = Math.min(service[2], accepted);
    const record: BatchRecord = {
      batch: batch.index,
      rows: batch.size,
      new: fresh,
      existing: accepted - fresh,
      failed: failures.length,
      retries: batch.retries,
      service,
      failures,
    };
    this.journal?.record(record);
    this.acknowledgedNow++;
    this.apply(batch, record, undefined, failureEmails);
    this.consecutiveFailures = 0;
    if (this.journal?.error) this.fail(this.journal.error);
    this.hooks.onBatchDone?.({ index: batch.index, rows: batch.size, acknowledged: true, fromJournal: false });
  }

  /** Counts a batch's outcome (sent now, or read from the journal of an earlier run: then its rows are still at hand). */
  private apply(batch: Batch, record: BatchRecord, rows?: readonly string[][], emails?: readonly string[]): void {
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
      else this.laterProblem(line, code, message, emails?.[k] ?? '');
    });
    this.progress(true);
  }

  private replay(batch: Batch, record: BatchRecord): void {
    if (record.rows !== batch.size) {
      this.fail(new UsageError(`the journal does not match the file: batch ${batch.index + 1} had ${record.rows} rows, now ${batch.size}`));
      return;
    }
    this.retries += record.retries;
    this.resumedBatches++;
    this.apply(batch, record, batch.records());
    batch.release();
    this.hooks.onBatchDone?.({ index: batch.index, rows: batch.size, acknowledged: true, fromJournal: true });
  }

  private batchFailed(batch: Batch, error: unknown): void {
    if (stopsEverything(error)) {
      // A refused key, a list that does not exist: every batch would meet it. One
      // error stops the import, and the requests still in flight are called off;
      // the rows of these batches are not failures of their own (no line per row):
      // they are left without an outcome (`unfinished`), for a rerun once the cause is fixed.
      this.halt.abort();
      this.fail(error as Error);
      return;
    }
    const code = errorCode(error);
    const message = (error as Error)?.message ?? String(error);
    this.counts.failed += batch.size;
    this.unacknowledged++;
    this.batchesDone++;
    for (let i = 0; i < batch.size; i++) this.laterProblem(batch.lines[i]!, code, message, '');
    this.hooks.onBatchDone?.({ index: batch.index, rows: batch.size, acknowledged: false, fromJournal: false });
    this.progress(true);
    if (transportFailure(error) && ++this.consecutiveFailures >= CONSECUTIVE_FAILURES_LIMIT) {
      const stop = new RepeatedFailureError(`stopped: ${CONSECUTIVE_FAILURES_LIMIT} batches in a row failed after their retries (last: ${message})`, error);
      this.fail(stop);
    } else if (!transportFailure(error)) {
      this.consecutiveFailures = 0;
    }
  }

  private dryRunBatch(batch: Batch): void {
    if (!this.firstRequestShown) {
      this.firstRequestShown = true;
      this.hooks.onFirstRequest?.({ method: 'POST', path: importPath(this.o.listId), body: JSON.parse(batch.body(this.o.flags).toString('utf8')) });
    }
    batch.release();
    this.wouldSend += batch.size;
    this.batchesDone++;
    this.progress(false);
  }

  /**
   * A row the service refused, known by its line: counted and reported now;
   * written to --failures at the end, when its cells are read again (batches.ts).
   */
  private laterProblem(line: number, code: string, message: string, email: string): void {
    this.codes[code] = (this.codes[code] ?? 0) + 1;
    if (this.failures) {
      this.laterLines.push(line);
      this.laterReasons.push(this.reasonFor(code, message));
    }
    this.hooks.onProblem?.({ line, outcome: 'failed', code, message, email });
  }

  /** One shared [code, message] per distinct reason: a failed batch of 1000 rows holds one. */
  private reasonFor(code: string, message: string): [string, string] {
    const last = this.laterReasons[this.laterReasons.length - 1];
    if (last && last[0] === code && last[1] === message) return last;
    return [code, message];
  }

  /** Writes the rows the service refused to --failures, reading their cells again from the file (only as far as the last one). */
  private async writeLaterFailures(): Promise<void> {
    const failures = this.failures;
    if (!failures || this.laterLines.length === 0) return;
    const order = this.laterLines.map((_, i) => i).sort((a, b) => this.laterLines[a]! - this.laterLines[b]!);
    const source = openRecords(this.o.input, this.delimiter, this.carriageReturns);
    const parser = source.parser;
    try {
      const header = await readFirstRecord(parser);
      let nextLine = 2 + (header && this.countLineBreaks ? lineBreaksIn(header) : 0);
      let k = 0;
      await new Promise<void>((resolve, reject) => {
        let busy = false;
        const pump = () => {
          if (busy) return;
          let record: string[] | null;
          while (k < order.length && (record = parser.read() as string[] | null) !== null) {
            const line = nextLine;
            nextLine += this.countLineBreaks ? 1 + lineBreaksIn(record) : 1;
            let ok = true;
            while (k < order.length && this.laterLines[order[k]!] === line) {
              const [code, message] = this.laterReasons[order[k]!]!;
              ok = failures.write(record, line, 'failed', code, message) && ok;
              k++;
            }
            if (!ok) {
              busy = true;
              void failures.drain().then(() => {
                busy = false;
                pump();
              });
              return;
            }
          }
          if (k >= order.length) resolve();
        };
        parser.on('readable', pump);
        parser.once('end', () => resolve());
        parser.once('error', reject);
        if (parser.readableEnded) resolve();
        pump();
      });
    } catch (err) {
      throw parseFailure(this.o.input.name, err);
    } finally {
      source.close();
    }
  }

  private problem(record: readonly string[], line: number, outcome: FailureOutcome, code: string, message: string): void {
    this.codes[code] = (this.codes[code] ?? 0) + 1;
    if (this.failures && !this.failures.write(record, line, outcome, code, message) && !this.waitingForDrain) {
      this.waitingForDrain = true;
      void this.failures.drain().then(() => {
        this.waitingForDrain = false;
        this.settle();
      });
    }
    this.hooks.onProblem?.({ line, outcome, code, message, email: (record[this.plan.emailColumn] ?? '').trim() });
  }

  private progress(force: boolean): void {
    if (!this.hooks.onProgress) return;
    const now = performance.now();
    if (!force && now - this.lastProgress < 100) return;
    this.lastProgress = now;
    this.hooks.onProgress({
      rowsRead: this.rowsRead,
      bytesRead: this.records.bytesRead(),
      totalBytes: this.o.input.size,
      inFlight: this.inFlight,
      retries: this.retries,
      batchesDone: this.batchesDone,
      elapsedMs: now - this.started,
    });
  }

  // ---- the end -----------------------------------------------------------------------

  private async closeFiles(allAcknowledged: boolean): Promise<void> {
    const closing: Promise<void>[] = [];
    if (this.failures) closing.push(this.failures.close());
    if (this.journal) {
      // A finished import needs no journal; an unfinished one keeps it for --resume,
      // unless it records no acknowledged batch (there is nothing to resume).
      closing.push(allAcknowledged || !this.journalHoldsBatches() ? this.journal.remove() : this.journal.close());
    }
    const results = await Promise.allSettled(closing);
    for (const r of results) if (r.status === 'rejected') this.error ??= r.reason as Error;
  }

  /** Batches acknowledged by the service, in this run or an earlier one: what makes a journal worth keeping. */
  private journalHoldsBatches(): boolean {
    return this.acknowledgedNow > 0 || this.journaled.size > 0;
  }

  private summary(complete: boolean): ImportSummary {
    const c = this.counts;
    const rows = c.new + c.existing + c.failed + c.rejected + c.duplicates + (this.o.dryRun ? this.wouldSend : 0);
    const elapsedMs = Math.round(performance.now() - this.started);
    const unfinished = this.o.dryRun ? 0 : this.rowsRead - (c.new + c.existing + c.failed + c.rejected + c.duplicates);
    const journalKept = this.journal !== undefined && !(complete && this.unacknowledged === 0) && this.journalHoldsBatches();
    return {
      rows,
      new: c.new,
      existing: c.existing,
      failed: c.failed,
      rejected: c.rejected,
      duplicates: c.duplicates,
      batches: this.batchesDone,
      retries: this.retries,
      elapsedMs,
      resumed: this.journaled.size > 0,
      service: { ...this.service },
      complete,
      dryRun: this.o.dryRun,
      ...(this.o.dryRun ? { wouldSend: this.wouldSend } : {}),
      resumedBatches: this.resumedBatches,
      unacknowledgedBatches: this.unacknowledged,
      unfinished: Math.max(0, unfinished),
      blankLines: this.blankLines,
      codes: { ...this.codes },
      rowsPerSecond: elapsedMs > 0 ? Math.round((this.rowsRead * 1000) / elapsedMs) : 0,
      input: this.o.input.name,
      list: this.o.listId,
      delimiter: this.delimiter,
      encoding: this.o.input.encoding,
      ...(this.failures ? { failuresFile: this.failures.path } : {}),
      ...(journalKept ? { journal: this.journal!.path } : {}),
      ...(this.stoppedBy && !complete ? { stoppedBy: this.stoppedBy } : {}),
    };
  }
}

/** Rows the file probably holds, from its size and the length of the lines in its head (sizes the duplicate table). */
function estimateRows(input: ImportInput): number {
  const lines = input.head.split('\n').length - 1;
  if (lines <= 1) return 0;
  const headBytes = Buffer.byteLength(input.head);
  return Math.ceil((input.size / headBytes) * lines);
}

/** Line breaks inside a record's quoted fields (\n, \r\n or a lone \r each count once). */
function lineBreaksIn(record: string[]): number {
  let breaks = 0;
  for (let f = 0; f < record.length; f++) {
    const field = record[f]!;
    for (let i = field.indexOf('\n'); i >= 0; i = field.indexOf('\n', i + 1)) breaks++;
    for (let i = field.indexOf('\r'); i >= 0; i = field.indexOf('\r', i + 1)) if (field.charCodeAt(i + 1) !== 10) breaks++;
  }
  return breaks;
}

function hint<E extends UsageError>(error: E, text: string): E {
  error.hint = text;
  return error;
}

/** The stop after consecutive failed batches (exit 1, like the failures it repeats). */
class RepeatedFailureError extends NetworkError {
  constructor(message: string, cause: unknown) {
    super(message, 'POST', '', { cause });
    this.name = 'RepeatedFailure';
  }
}

export { describeDelimiter };

/** How the input file differs from when it was opened (size, then modification time), if it does; a stdin copy is ours and does not change. */
async function inputChange(input: ImportInput): Promise<string | undefined> {
  if (input.fromStdin) return undefined;
  try {
    const now = await stat(input.path);
    if (now.size !== input.identity.size) return `${input.identity.size} bytes, now ${now.size}`;
    if (input.identity.mtimeMs !== undefined && Math.trunc(now.mtimeMs) !== input.identity.mtimeMs) return 'its modification time changed';
    return undefined;
  } catch (err) {
    return `it can no longer be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
}
