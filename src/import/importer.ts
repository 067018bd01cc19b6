// The import pipeline, streaming end to end (docs/import.md draws it): every
// data row ends in exactly one outcome (CLI.md "Import guarantees").
// runImport() prints nothing: it reports through hooks and returns the summary.
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { importPath, type ImportFlags } from '../api/subscribers.js';
import { hinted, UsageError } from '../core/errors.js';
import type { HeapHook } from '../core/heap.js';
import type { ApiClient } from '../core/http.js';
import type { Throttle } from '../core/throttle.js';
import type { Consent } from '../validation/subscriber-fields.js';
import type { Batch } from './batches.js';
import { SendLoop } from './dispatch.js';
import { FailuresFile, refuseFailuresClash } from './failures.js';
import type { ImportInput } from './input.js';
import { JournalSession, type JournalOptions } from './journal.js';
import { planMapping, unmappedColumnsNotice, type ColumnPlan, type MappingPlan } from './mapping.js';
import { DateTimeColumns } from './date-times.js';
import { EmptyNames, noNameColumnNotice, refuseEmptyNames } from './names.js';
import type { ImportOutcome } from './outcome.js';
import { LeftOutValues } from './partial.js';
import { readMeaning } from './prescan.js';
import { RowBuilder } from './rows.js';
import { batchRecord, errorCode, FailureStreak, sendBatch, stopsEverything } from './send.js';
import { checkText, RowSource, type TextShape } from './source.js';
import { checkRows, formBatches, readRecords, type ReadingState } from './stages.js';
import type { StatusColumn } from './status-columns.js';
import { Tally, type ImportProgress, type ImportSummary, type RowProblem } from './tally.js';

export type { ImportSummary, RowProblem } from './tally.js';
export type { ImportOutcome } from './outcome.js';

export interface ImportOptions {
  input: ImportInput;
  listId: string;
  map: string[];
  onlyMapped?: boolean;
  includeUnsubscribed?: boolean;
  allowEmptyNames?: boolean;
  strict?: boolean;
  consent?: Consent;
  flags: ImportFlags;
  batchSize: number;
  concurrency: number;
  /** Sniffed from the head when undefined. */
  delimiter?: string;
  multiSeparator?: string;
  dateOnly?: boolean;
  dryRun: boolean;
  failuresPath?: string;
  /** Undefined: no journal (stdin without --journal, --dry-run). */
  journalPath?: string;
  resume: boolean;
  restart?: boolean;
  /** Per request. */
  timeoutMs: number;
}

interface BatchDone {
  index: number;
  rows: number;
  acknowledged: boolean;
  /** From an earlier run's journal: not sent again. */
  fromJournal: boolean;
}

export interface PlanReport {
  delimiter: string;
  encoding: string;
  columns: ColumnPlan[];
  header: string[];
  /** Columns that decide which rows are sent, read or not (--include-unsubscribed). */
  statusColumns?: StatusColumn[];
}

export interface ImportHooks {
  /** Needed unless dryRun. */
  client?: ApiClient;
  onPlan?(plan: PlanReport): void;
  onProgress?(progress: ImportProgress): void;
  onBatchDone?(batch: BatchDone): void;
  /** Every row not imported, as soon as its outcome is known. */
  onProblem?(problem: RowProblem): void;
  onNotice?(message: string): void;
  /** --dry-run: the request that would be sent first. */
  onFirstRequest?(request: { method: 'POST'; path: string; body: unknown }): void;
  /** Where `--failures -` writes. */
  failuresStdout?: Writable;
  /** First Ctrl-C: stop reading, let the batches in flight finish. */
  stopSignal?: AbortSignal;
  /** Second Ctrl-C: give up on the batches in flight too. */
  abandonSignal?: AbortSignal;
  /** Keeps memory from growing with the file. */
  heap?: HeapHook;
}

export async function runImport(o: ImportOptions, hooks: ImportHooks = {}): Promise<ImportOutcome> {
  const { input } = o;
  if (o.failuresPath) await refuseFailuresClash(o.failuresPath, input, o.dryRun ? undefined : o.journalPath);
  const planOf = (header: string[]) => planMapping(header, o.map, input.name, { onlyMapped: o.onlyMapped });
  const shape = await checkText(input, o.delimiter, o.allowEmptyNames ? undefined : planOf);
  const { rows, header } = await RowSource.open(input, shape);
  let journal: JournalSession | undefined;
  let failures: FailuresFile | undefined;
  let run: ImportRun;
  try {
    if (header === undefined || (header.length === 1 && header[0]!.trim() === '')) {
      throw hinted(new UsageError(`${input.name} is empty: there is no header row`), 'The first line names the columns, e.g. "email,name"; nothing was sent.');
    }
    const plan = planOf(header);
    // Every row would be refused (214): refused once here instead (CLI.md "--consent").
    if (plan.consentColumn < 0 && o.consent === undefined) {
      throw hinted(
        new UsageError(`${input.name} has no consent column, and no --consent was given: the service refuses a subscriber without ConsentToTrack`, 214),
        'Give --consent yes|no|unchanged for every row, or name the column with --map "<Column>=ConsentToTrack". Nothing was sent.',
      );
    }
    const meaning = await readMeaning(input, shape, plan, o);
    if (!o.allowEmptyNames) await refuseEmptyNames(input, shape, plan, header, o.dryRun);
    hooks.onPlan?.({ delimiter: shape.delimiter, encoding: input.encoding, columns: plan.columns, header, statusColumns: meaning.found });
    for (const notice of meaning.notices) hooks.onNotice?.(notice);
    const unmapped = unmappedColumnsNotice(plan, o.listId);
    if (unmapped) hooks.onNotice?.(unmapped);
    const nameless = o.allowEmptyNames && noNameColumnNotice(plan, input.name, o.dryRun, shape.rowsEstimate);
    if (nameless) hooks.onNotice?.(nameless);
    if (!o.dryRun && !hooks.client) throw new Error('runImport needs a client unless dryRun');
    if (!o.dryRun && o.journalPath) {
      journal = await JournalSession.open(o.journalPath, {
        resume: o.resume,
        restart: o.restart,
        input,
        options: journalOptions(o, plan, shape),
        // The journal belongs to this service and key too (CLI.md "--journal").
        client: hooks.client!,
        maxRows: shape.rowsEstimate,
        onNotice: hooks.onNotice,
      });
    }
    if (o.failuresPath) failures = await FailuresFile.open(o.failuresPath, header, shape.delimiter, plan.userWidth, {
        stdout: hooks.failuresStdout,
        signal: hooks.stopSignal,
        onNotice: hooks.onNotice,
      });
    // Shared with every walk of the client: one 429 paces them all (CLI.md "flow control").
    const throttle = hooks.client && !o.dryRun ? await hooks.client.flow(o.concurrency) : undefined;
    const heap = !o.dryRun && (await hooks.heap?.())?.boundedHeap({ youngBytes: 4 << 20, workBetweenCollections: 100_000 });
    const told: ImportHooks = !heap ? hooks : {
      ...hooks,
      onBatchDone: (b) => {
        hooks.onBatchDone?.(b);
        if (!b.fromJournal) heap(b.rows);
      },
    };
    run = new ImportRun(o, told, plan, header, rows, journal, failures, shape.rowsEstimate, throttle, meaning.statusColumns);
    await run.read();
  } catch (err) {
    rows.close();
    await Promise.allSettled([failures?.close(), journal?.end(false)]);
    throw err;
  }
  return run.finish(shape);
}

/** Everything that changes the requests of an import: a resumed run must use the same. */
function journalOptions(o: ImportOptions, plan: MappingPlan, shape: TextShape): JournalOptions {
  return {
    list: o.listId.toLowerCase(),
    batchSize: o.batchSize,
    consent: o.consent ?? null,
    resubscribe: o.flags.Resubscribe,
    queueAutoresponders: o.flags.QueueSubscriptionBasedAutoResponders,
    restartAutoresponders: o.flags.RestartSubscriptionBasedAutoresponders,
    delimiter: shape.delimiter,
    encoding: o.input.encoding,
    multiSeparator: o.multiSeparator ?? null,
    ...(o.includeUnsubscribed ? { includeUnsubscribed: true } : {}),
    // Options added later are written only when given, so earlier journals still fit.
    ...(o.dateOnly ? { dateOnly: true as const } : {}),
    mapping: plan.columns.map((c) => (c.target === 'CustomField' ? `field:${c.key}` : c.target === 'ignore' ? '-' : c.target)),
    ...(o.strict ? { strict: true } : {}),
  };
}

/** One run of the stages: the send loop pulls batches, the batches pull records. */
class ImportRun {
  private readonly builder: RowBuilder;
  private readonly tally: Tally;
  private readonly emptyNames: EmptyNames;
  private readonly leftOut: LeftOutValues;
  private readonly dispatch: SendLoop<Batch>;
  private readonly streak = new FailureStreak();
  private readonly expectedRows: number;
  /** Whether the reading reached the end of the file, and whether a stop came before. */
  private readonly reading: ReadingState = { done: false, stopped: false };
  private stopping = false;
  private stoppedBy: string | undefined;
  private error: Error | undefined;
  private unmatchedNoticed = false;
  private firstRequestShown = false;

  constructor(
    private readonly o: ImportOptions,
    private readonly hooks: ImportHooks,
    plan: MappingPlan,
    header: readonly string[],
    private readonly rows: RowSource,
    private readonly journal: JournalSession | undefined,
    private readonly failures: FailuresFile | undefined,
    rowsEstimate: number,
    /** Read for the summary's figures. */
    private readonly throttle: Throttle | undefined,
    statusColumns: StatusColumn[],
  ) {
    const dateTimes = new DateTimeColumns(o.dateOnly === true, o.dryRun, hooks.onNotice);
    this.builder = new RowBuilder(plan, { consent: o.consent, multiSeparator: o.multiSeparator, statusColumns, includeUnsubscribed: o.includeUnsubscribed, dateTimes, strict: o.strict });
    this.leftOut = new LeftOutValues(plan);
    this.dispatch = new SendLoop<Batch>({
      concurrency: o.concurrency,
      work: (batch, signal) => this.handle(batch, signal),
      onError: (err) => this.fail(err as Error),
    });
    this.tally = new Tally({
      emailColumn: plan.emailColumn,
      failures,
      leftOut: this.leftOut,
      onProblem: hooks.onProblem,
      onProgress: hooks.onProgress,
      gauges: () => ({ inFlight: this.dispatch.inFlight, bytesRead: rows.bytesRead(), totalBytes: o.input.size, totalRows: rowsEstimate }),
    });
    this.emptyNames = new EmptyNames(plan, header, o.input.name, o.dryRun, hooks.onNotice);
    // A gzip file's size says little of its rows: the structure check counted them.
    this.expectedRows = o.input.compressed ? rowsEstimate : estimateRows(o.input);
  }

  async read(): Promise<void> {
    const { stopSignal, abandonSignal } = this.hooks;
    const stop = () => this.stop();
    const abandon = () => this.abandon();
    stopSignal?.addEventListener('abort', stop, { once: true });
    abandonSignal?.addEventListener('abort', abandon, { once: true });
    try {
      if (stopSignal?.aborted) this.stop();
      if (abandonSignal?.aborted) this.abandon();
      const stopped = () => this.stopping;
      const records = readRecords(this.rows, this.failures, stopped);
      const batches = formBatches(checkRows(records, this.builder, this.tally, this.leftOut), {
        tally: this.tally,
        names: this.emptyNames,
        batchSize: this.o.batchSize,
        expectedRows: this.expectedRows,
        keepRows: (index) => this.journal?.earlierBatch(index) !== undefined,
        stopped,
        reading: this.reading,
        rows: this.rows,
      });
      await this.dispatch.run(batches);
    } catch (err) {
      // A parse or read failure; after a stop the reading was cut short on purpose.
      if (!this.stopping) this.fail(err as Error);
    } finally {
      stopSignal?.removeEventListener('abort', stop);
      abandonSignal?.removeEventListener('abort', abandon);
      this.rows.close();
    }
  }

  async finish(shape: TextShape): Promise<ImportOutcome> {
    const { input } = this.o;
    // A stop after the reading ended and every row had its outcome changed nothing: complete, not interrupted.
    const complete = this.reading.done && !this.reading.stopped && this.tally.rowsWithoutOutcome === 0;
    const allAcknowledged = complete && this.tally.unacknowledgedBatches === 0;
    const change = await inputChange(input);
    if (change) {
      this.hooks.onNotice?.(
        `${input.name} changed while it was being imported (${change}): rows read after the change may not be the rows checked before sending, ` +
          'nor the rows the failures file shows; import a copy that nothing writes to',
      );
    }
    const { cleanedAddresses, cleanedCharacters } = this.builder;
    if (cleanedAddresses > 0) {
      this.hooks.onNotice?.(
        `${cleanedAddresses === 1 ? '1 address' : `${cleanedAddresses.toLocaleString('en-US')} addresses`} of ${input.name} held invisible characters (${[...cleanedCharacters].sort().join(', ')}), ` +
          `as text copied from a web page or a document does: ${cleanedAddresses === 1 ? 'it was' : 'they were'} sent without them`,
      );
    }
    for (const line of this.leftOut.lines({ dryRun: this.o.dryRun, failuresFile: this.failures?.path })) this.hooks.onNotice?.(line);
    try {
      await this.failures?.writeLater(async () => (await RowSource.open(input, shape)).rows);
    } catch (err) {
      this.error ??= err as Error;
    }
    const closing = await Promise.allSettled([this.failures?.close(), this.journal?.end(allAcknowledged)]);
    for (const r of closing) if (r.status === 'rejected') this.error ??= r.reason as Error;
    const summary = this.tally.summary({
      complete,
      dryRun: this.o.dryRun,
      resumed: this.journal?.resumed === true,
      input: input.name,
      list: this.o.listId,
      delimiter: shape.delimiter,
      encoding: input.encoding,
      failuresFile: this.failures?.path,
      journal: this.journal?.keeps(allAcknowledged) ? this.journal.path : undefined,
      stoppedBy: this.stoppedBy,
      emptyNames: this.emptyNames.count,
      flow: this.throttle?.stats,
    });
    return { summary, error: this.error, interrupted: !complete && this.hooks.stopSignal?.aborted === true && !this.error };
  }

  // ---- stopping ------------------------------------------------------------------

  /** Ctrl-C, or an error every batch would meet: batches in flight finish. */
  private stop(reason = 'interrupted'): void {
    this.stoppedBy ??= reason;
    if (this.stopping) return;
    this.stopping = true;
    this.rows.close();
    this.dispatch.stop();
  }

  /** Second Ctrl-C: the batches in flight are not journaled, so --resume sends them again. */
  private abandon(): void {
    this.stop();
    this.dispatch.cancel();
  }

  private fail(error: Error): void {
    this.error ??= error;
    this.stop(error.message);
  }

  // ---- batches ---------------------------------------------------------------------

  private handle(batch: Batch, signal: AbortSignal): Promise<void> | void {
    if (this.o.dryRun) return this.dryRun(batch);
    const earlier = this.journal?.earlierBatch(batch.index);
    if (!earlier) return this.send(batch, signal);
    if (earlier.rows !== batch.size) {
      this.fail(new UsageError(`the journal does not match the file: batch ${batch.index + 1} had ${earlier.rows} rows, now ${batch.size}`));
      return;
    }
    this.tally.resumed(batch, earlier);
    batch.release();
    this.hooks.onBatchDone?.({ index: batch.index, rows: batch.size, acknowledged: true, fromJournal: true });
  }

  private async send(batch: Batch, signal: AbortSignal): Promise<void> {
    const answer = await sendBatch(batch, {
      client: this.hooks.client!,
      listId: this.o.listId,
      flags: this.o.flags,
      timeoutMs: this.o.timeoutMs,
      signal,
      onRetry: () => {
        this.tally.retries++;
        batch.retries++;
      },
    });
    if (answer.kind === 'abandoned') return;
    if (answer.kind === 'acknowledged') {
      const { record, emails, unmatched } = batchRecord(batch, answer.result, this.hooks.client!);
      if (unmatched && !this.unmatchedNoticed) {
        this.unmatchedNoticed = true;
        this.hooks.onNotice?.('the service reported a failure for an address that is not in the batch; it is not counted against any row');
      }
      this.journal?.record(record);
      this.tally.acknowledged(batch, record, undefined, emails);
      this.streak.acknowledged();
      if (this.journal?.error) this.fail(this.journal.error);
      this.hooks.onBatchDone?.({ index: batch.index, rows: batch.size, acknowledged: true, fromJournal: false });
      return;
    }
    const { error } = answer;
    if (stopsEverything(error)) {
      // A refused key, a missing list: every batch would meet it. Their rows are
      // left `unfinished`, not failed one by one, for a rerun once it is fixed.
      this.dispatch.cancel();
      this.fail(error as Error);
      return;
    }
    const message = (error as Error)?.message ?? String(error);
    this.tally.failed(batch, errorCode(error), message);
    this.hooks.onBatchDone?.({ index: batch.index, rows: batch.size, acknowledged: false, fromJournal: false });
    const stop = this.streak.failed(error, message);
    if (stop) this.fail(stop);
  }

  private dryRun(batch: Batch): void {
    if (!this.firstRequestShown) {
      this.firstRequestShown = true;
      this.hooks.onFirstRequest?.({ method: 'POST', path: importPath(this.o.listId), body: JSON.parse(batch.body(this.o.flags).toString('utf8')) });
    }
    batch.release();
    this.tally.wouldSendBatch(batch);
  }
}

/** Rows the file probably holds, from its size and its head's lines (sizes the duplicate table). */
function estimateRows(input: ImportInput): number {
  const lines = input.head.split('\n').length - 1;
  if (lines <= 1) return 0;
  const headBytes = Buffer.byteLength(input.head);
  return Math.ceil((input.size / headBytes) * lines);
}


/** How the input file differs from when it was opened, if it does; a stdin copy is ours and does not change. */
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
