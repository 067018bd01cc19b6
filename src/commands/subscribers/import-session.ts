// `email subscribers import` (definition: import.ts), through the streaming
// pipeline of src/import: checks the options, wires progress and Ctrl-C, and
// returns the report as data with the error that ends the command, if any.
import { resolve } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { neutralize } from '../../core/neutralize.js';
import { DEFAULT_IMPORT_TIMEOUT_MS, type ApiClient } from '../../core/http.js';
import { Channel } from '../../core/limiter.js';
import { poolFor } from '../../core/pool.js';
import { describeDelimiter, parseDelimiterFlag } from '../../import/source.js';
import { runImport, type ImportOptions, type ImportSummary, type PlanReport, type RowProblem } from '../../import/importer.js';
import { isCopied, openInput, parseEncoding } from '../../import/input.js';
import { defaultJournalPlace } from '../../import/journal-place.js';
import { describeColumn } from '../../import/mapping.js';
import { dryRunEnd, importEnd, plural } from '../../import/outcome.js';
import { rememberLists } from '../completion/seen-lists.js';
import type { Column, DisplayStyle, Input, PeopleOut, Result } from '../define.js';
import { showInvisible } from '../../validation/email-address.js';
import type { Consent } from '../../validation/subscriber-fields.js';
import type { args, options } from './import-options.js';

type ImportInput = Input<typeof args, typeof options>;

/** The service's code for an address in the unsubscribed list (service-spec.md "Coded errors by area"). */
const UNSUBSCRIBED = '206';

/** Rows listed on stderr after a real import (Wrangler prints at most 12 row errors); every one is in --failures. */
const PROBLEMS_SHOWN = 12;

interface Parsed {
  file: string;
  options: Omit<ImportOptions, 'input' | 'journalPath'>;
  journalFlag?: string;
  encoding: ReturnType<typeof parseEncoding>;
  progressLines: boolean;
}

const CONSENT: Record<'yes' | 'no' | 'unchanged', Consent> = { yes: 'Yes', no: 'No', unchanged: 'Unchanged' };

/** The checks that concern several options together; each option alone was checked by its declaration. */
function parseOptions(opts: ImportInput, ctx: Context): Parsed {
  const { file, dryRun, resume, restart } = opts;
  if (restart && resume) throw new UsageError('--restart starts over from the first row and --resume continues: give one of them');
  if (dryRun && resume) throw new UsageError('--dry-run sends nothing, so there is nothing to --resume');
  if (dryRun && restart) throw new UsageError('--dry-run sends nothing and keeps no journal: there is none to --restart');
  if (dryRun && opts.journal !== undefined) throw new UsageError('--dry-run sends nothing and keeps no --journal');
  // A report streamed to standard output would have CSV among it.
  if (opts.failures === '-' && dryRun) throw new UsageError('--failures - writes the rows not imported to standard output, where --dry-run prints its report: name a file for --failures');
  if (file === '-' && (resume || restart) && opts.journal === undefined) {
    throw new UsageError(`--${resume ? 'resume' : 'restart'} needs --journal <file> when the CSV comes from standard input`);
  }
  return {
    file,
    options: {
      listId: opts.list,
      map: opts.map,
      onlyMapped: opts.onlyMapped,
      includeUnsubscribed: opts.includeUnsubscribed,
      allowEmptyNames: opts.allowEmptyNames,
      strict: opts.strict,
      consent: opts.consent === undefined ? undefined : CONSENT[opts.consent],
      flags: {
        Resubscribe: opts.resubscribe,
        QueueSubscriptionBasedAutoResponders: opts.queueAutoresponders,
        RestartSubscriptionBasedAutoresponders: opts.restartAutoresponders,
      },
      batchSize: opts.batchSize,
      concurrency: opts.concurrency,
      delimiter: parseDelimiterFlag(opts.delimiter),
      multiSeparator: opts.multiSeparator,
      dateOnly: opts.dateOnly,
      dryRun,
      // `-` is standard output (CLI.md "--failures"), not a file of that name.
      failuresPath: opts.failures === undefined || opts.failures === '-' ? opts.failures : resolve(ctx.cwd, opts.failures),
      resume,
      restart,
      timeoutMs: ctx.globals.timeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS,
    },
    journalFlag: opts.journal,
    encoding: parseEncoding(opts.encoding),
    progressLines: opts.progress,
  };
}

export async function importCommand(opts: ImportInput, ctx: Context): Promise<Result> {
  const parsed = parseOptions(opts, ctx);
  if (parsed.file === '-' && ctx.stdin.isTTY) {
    // Otherwise a terminal just waits, and looks stuck.
    ctx.log.info('Reading CSV from standard input: paste or type the rows, then press Ctrl-D on a new line (Ctrl-Z, then Enter, on Windows). Ctrl-C stops.');
  }
  // A pipe is copied and has no place beside it for a journal (input.ts): said before it is read.
  const journalOption = parsed.options.resume ? '--resume' : parsed.options.restart ? '--restart' : undefined;
  if (journalOption && parsed.journalFlag === undefined && (await isCopied(parsed.file, ctx.cwd))) {
    throw new UsageError(`${journalOption} needs --journal <file> when the CSV comes from a pipe (${parsed.file}): no journal is kept beside a pipe`);
  }
  // ctx.signal: Ctrl-C while a pipe is copied ends the copy at once (CLI.md "signals").
  const input = await openInput(parsed.file, ctx.cwd, ctx.stdin.stream, parsed.encoding, ctx.signal);
  try {
    const journalPath = parsed.options.dryRun
      ? undefined
      : parsed.journalFlag !== undefined
        ? resolve(ctx.cwd, parsed.journalFlag)
        : input.spooled
          ? undefined
          : await besideOrStateDirectory(input.path, parsed.options.listId, ctx);
    const options: ImportOptions = { ...parsed.options, input, journalPath };
    if (!options.dryRun) return options.failuresPath === '-' ? failuresToStdout(options, ctx, parsed.progressLines, () => input.cleanup()) : summaryResult(await realRun(options, ctx, parsed.progressLines));
  } catch (error) {
    await input.cleanup();
    throw error;
  }
  // A dry run's report streams while the file is read: the input is cleaned up once the run is over.
  return dryRun({ ...parsed.options, input, journalPath: undefined }, ctx, () => input.cleanup());
}

/** The journal's default place (import/journal-place.ts), said on stderr when it is not beside the input. */
async function besideOrStateDirectory(inputPath: string, listId: string, ctx: Context): Promise<string> {
  const place = await defaultJournalPlace(inputPath, listId, ctx.env);
  if (place.moved) ctx.log.warn(`${place.moved}: the journal of this import is ${place.path}`);
  return place.path;
}

// ---- the import --------------------------------------------------------------------

/**
 * `--failures -`: the rows not imported are the command's data, CSV written
 * to standard output as the import finds them, whatever the format (it is
 * what was asked for); the summary goes to stderr, for people as lines, in
 * machine mode as a notice. The import runs while the renderer writes.
 */
function failuresToStdout(options: ImportOptions, ctx: Context, progressLines: boolean, cleanup: () => Promise<void>): Result {
  const rows = new PassThrough({ encoding: 'utf8' });
  const running = realRun(options, ctx, progressLines, rows);
  let report: Ran | undefined;
  running.catch(async (error: unknown) => {
    await cleanup();
    rows.destroy(error as Error);
  });
  return {
    // No data: the rows are the output in every format, as they come.
    people: async (_, out) => {
      for await (const chunk of rows) await out.text(chunk as string);
      report = await running;
    },
    message: () => report && [...summaryLines(report.summary, ctx.log.count), ...report.notes].join('\n'),
    error: () => report?.error,
  };
}

/** How an import ended: its summary, the lines people read under it, and the error that ends the command. */
interface Ran {
  summary: ImportSummary;
  notes: string[];
  error?: Error;
}

/** The summary is the data; people read it as a table, then on stderr the first rows not imported and what ended the run. */
function summaryResult({ summary, notes, error }: Ran): Result {
  const people = async (_: unknown, out: PeopleOut) => {
    await out.table(summaryRecord(summary), summaryColumns(summary));
    for (const line of notes) out.note(line);
  };
  return { data: summary, people, error };
}

async function realRun(options: ImportOptions, ctx: Context, progressLines: boolean, failuresStdout?: Writable): Promise<Ran> {
  // One keep-alive connection per batch in flight, so --concurrency 16 means 16 requests on the wire.
  const client: ApiClient = await ctx.api(poolFor(options.concurrency));
  const progress = await ctx.progress(`importing ${options.input.name}`, { lines: progressLines });
  const stop = new AbortController();
  const abandon = new AbortController();
  // The first rows not imported, for stderr: failed and rejected ones before duplicates (which were imported once).
  const shown: RowProblem[] = [];
  const shownDuplicates: RowProblem[] = [];
  const offInterrupt = ctx.onInterrupt((count) => {
    progress.stop();
    if (count <= 1 && !stop.signal.aborted) {
      ctx.log.warn('stopping: no more rows are read; the batches in flight finish and the journal is saved (Ctrl-C again to abandon them)');
      stop.abort();
    } else if (!abandon.signal.aborted) {
      ctx.log.warn('abandoning the batches in flight: they are not journaled, so --resume sends them again');
      abandon.abort();
      void client.destroy();
    }
  });
  let outcome;
  let unsubscribed = 0;
  try {
    outcome = await runImport(options, {
      client,
      failuresStdout,
      stopSignal: stop.signal,
      abandonSignal: abandon.signal,
      onProgress: (p) => progress.update(p),
      onProblem: (p) => {
        // Imported without a value: said per column before the summary (import/partial.ts), not a row not imported.
        if (p.outcome === 'partial') return;
        if (p.code === UNSUBSCRIBED) unsubscribed++;
        const list = p.outcome === 'duplicate' ? shownDuplicates : shown;
        if (list.length < PROBLEMS_SHOWN) list.push(p);
      },
      onNotice: (message) => ctx.log.warn(message),
      heap: ctx.heap,
      onPlan: (plan) => ctx.log.debug(`mapping (${describeDelimiter(plan.delimiter)}, ${plan.encoding}): ${plan.columns.map(describeColumn).join('; ')}`),
    });
  } finally {
    progress.stop();
    offInterrupt();
  }
  const { summary } = outcome;
  await rememberLists(ctx, [options.listId]);
  // The summary (the renderer prints it), then for people the first rows not imported, then what ended the run (import/outcome.ts).
  const said = problemLines([...shown, ...shownDuplicates].slice(0, PROBLEMS_SHOWN), summary);
  if (unsubscribed > 0) {
    said.push(`${ctx.log.count(unsubscribed)} ${unsubscribed === 1 ? 'row was' : 'rows were'} refused as unsubscribed (206): --resubscribe re-adds them (only if the people asked to be added again)`);
  }
  const end = importEnd(outcome, ctx.log.count);
  if (end.warning) ctx.log.warn(end.warning);
  return { summary, notes: [...said, ...end.notes], error: end.error };
}

/** The first rows not imported, for people on stderr (every one is in --failures). */
function problemLines(shown: RowProblem[], summary: ImportSummary): string[] {
  const total = summary.failed + summary.rejected + summary.duplicates;
  if (total === 0) return [];
  // The message and the address come from the file or the service: neutralised whole, so a line break in a cell shows as \n and cannot start a line of its own.
  const lines = shown.map((p) => `  line ${p.line}: ${p.outcome}${p.code && p.code !== p.outcome ? ` (${p.code})` : ''}: ${neutralize(`${p.message}${p.email ? ` <${showInvisible(p.email)}>` : ''}`)}`);
  const said = [`Rows not imported:\n${lines.join('\n')}`];
  if (total > shown.length) {
    said.push(summary.failuresFile ? `  … ${total - shown.length} more; every one is in ${summary.failuresFile}` : `  … ${total - shown.length} more; --failures <file.csv> writes every one with its original columns`);
  } else if (summary.failuresFile) {
    said.push(`  (also in ${summary.failuresFile})`);
  }
  return said;
}

// ---- --dry-run -----------------------------------------------------------------------

/**
 * The whole pipeline but the sending: the mapping, every rejected row and
 * duplicate (streamed, so a large file's report does not sit in memory), the
 * first request body, and the counts, as data written as it comes (its
 * problems an async iterable). No request at all, so no key is needed.
 */
function dryRun(options: ImportOptions, ctx: Context, cleanup: () => Promise<void>): Result {
  let plan: PlanReport | undefined;
  let firstRequest: { method: string; path: string; body: unknown } | undefined;
  let mapped!: (mapping: ReturnType<typeof mappingJson>) => void;
  let unmapped!: (error: unknown) => void;
  const mapping = new Promise<ReturnType<typeof mappingJson>>((resolve, reject) => ((mapped = resolve), (unmapped = reject)));
  const problems = new Channel<Record<string, unknown>>();
  const run = runImport(options, {
    onPlan: (p) => {
      plan = p;
      mapped(mappingJson(p, options.includeUnsubscribed === true));
    },
    onProblem: (p) => problems.push({ Line: p.line, Outcome: p.outcome, Code: p.code, Message: p.message, EmailAddress: p.email }),
    onFirstRequest: (request) => {
      firstRequest = request;
    },
    onNotice: (message) => ctx.log.warn(message),
  }).finally(cleanup);
  const done = run.then(({ summary, error }) => {
    if (error) throw error;
    return summary;
  });
  // A failure (a file without consent column: nothing to report) reaches the renderer through the
  // mapping or the problems it waits on, so only the error is said; and never as an unhandled rejection.
  done.then(
    () => {
      mapped([]);
      problems.close();
    },
    (error: unknown) => {
      unmapped(error);
      problems.close(error);
    },
  );
  let summary: ImportSummary | undefined;
  const handled = <T>(p: Promise<T>): Promise<T> => (p.catch(() => undefined), p);
  const counts = handled(
    done.then((s) => {
      summary = s;
      const { dryRun: _, ...rest } = s;
      return { ...rest, firstRequest: firstRequest ?? null };
    }),
  );
  // The counts are known once every problem is out: they follow the problems, as the object's last fields.
  async function* problemsThenCounts(): AsyncGenerator<Record<string, unknown>> {
    yield* problems;
    Object.assign(data, await counts);
  }
  const data: Record<string, unknown> = { dryRun: true, mapping: handled(mapping), problems: problemsThenCounts() };
  const people = async (_: unknown, out: PeopleOut) => {
    const mapped = await data.mapping;
    if (plan) await out.line(`${options.input.name}: delimiter ${describeDelimiter(plan.delimiter)}${sepLine(options)}, ${plan.encoding}; columns:`);
    await out.table(mapped, MAPPING_COLUMNS);
    // Said once the first problem is found, or the file's end: a run that fails first says only why.
    const rows = (data.problems as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    const first = await rows.next();
    await out.line('Rows that would not be imported:');
    if (first.done) await out.line('  (none)');
    else await out.table(prepended(first.value, rows), PROBLEM_COLUMNS);
    const c = await counts;
    // For people the first body abbreviated (three subscribers and a count of the rest); the data has it whole.
    if (firstRequest) {
      await out.line(`First request: ${firstRequest.method} ${firstRequest.path}`);
      await out.json(abbreviateBody(firstRequest.body));
    }
    const dry = { ...c, dryRun: true } as ImportSummary;
    await out.table(summaryRecord(dry), summaryColumns(dry));
    out.note('Dry run: nothing was sent.');
  };
  return { data, people, error: () => summary && dryRunEnd(summary, ctx.log.count) };
}

/** `first`, then the rest of the records `rest` yields. */
async function* prepended(first: unknown, rest: AsyncIterator<unknown>): AsyncGenerator<unknown> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/** Where the delimiter came from, when a `sep=` first line named it. */
function sepLine(options: ImportOptions): string {
  return options.delimiter === undefined && options.input.sepDelimiter !== undefined ? ' (its sep= line)' : '';
}

const PROBLEM_COLUMNS: Column[] = [{ key: 'Line' }, { key: 'Outcome' }, { key: 'Code' }, { key: 'EmailAddress', header: 'Email address' }, { key: 'Message' }];
const MAPPING_COLUMNS: Column[] = [{ key: 'column', header: 'Column' }, { key: 'target', header: 'Becomes' }, { key: 'why', header: 'Why' }];

function mappingJson(plan: PlanReport, includeUnsubscribed: boolean) {
  return plan.columns.map((c) => {
    const status = plan.statusColumns?.find((s) => s.index === c.index);
    const decides = status ? `; ${status.format}: ${includeUnsubscribed ? 'not read (--include-unsubscribed)' : 'decides which rows are sent'}` : '';
    return {
      column: c.header,
      position: c.index + 1,
      target: c.target === 'CustomField' ? `CustomFields[${c.key}]` : c.target === 'ignore' ? '-' : c.target,
      why: { map: '--map', auto: 'recognised header', rest: 'other column', 'empty header': 'no header', 'failures file': 'added by --failures', 'only-mapped': 'not mapped (--only-mapped)' }[c.source] + (c.note ? ` (${c.note})` : '') + decides,
    };
  });
}

/** The first body on a terminal: three subscribers and a count of the rest. */
function abbreviateBody(body: unknown): unknown {
  const b = body as { Subscribers?: unknown[] } & Record<string, unknown>;
  if (!Array.isArray(b?.Subscribers) || b.Subscribers.length <= 3) return body;
  return { ...b, Subscribers: [...b.Subscribers.slice(0, 3), `… ${b.Subscribers.length - 3} more`] };
}

// ---- the summary ---------------------------------------------------------------------

// Counts in a message on stderr read as that stream needs them (ctx.log.count: grouped at a terminal only);
// counts in the summary (stdout) are written through the renderer's style: grouped on a terminal, plain digits in a pipe (CLI.md "numbers").
type Count = DisplayStyle['count'];
const counted = (v: unknown, t: DisplayStyle) => (typeof v === 'number' ? t.count(v) : String(v ?? ''));
/** A column whose value is a count. */
const number = (v: unknown, _record: unknown, t: DisplayStyle) => counted(v, t);

/** What the failures file holds, by outcome: its rows are the failed, rejected, duplicate and partial rows of the summary. */
function failuresFileContents(s: ImportSummary, count: Count): string {
  const total = s.failed + s.rejected + s.duplicates + s.partial;
  if (total === 0) return `${s.failuresFile} (no rows)`;
  const rejected = s.rejected - s.skipped;
  const parts = [
    s.failed && `${count(s.failed)} failed`,
    rejected && `${count(rejected)} rejected`,
    s.skipped && `${count(s.skipped)} skipped`,
    s.duplicates && plural(s.duplicates, 'duplicate', count),
    s.partial && `${count(s.partial)} partial`,
  ].filter(Boolean);
  return `${s.failuresFile} (${plural(total, 'row', count)}: ${parts.join(', ')})`;
}

/** The summary as `Header: value` lines, for stderr when standard output carries the failed rows. */
function summaryLines(s: ImportSummary, count: Count): string[] {
  const record = summaryRecord(s);
  const style: DisplayStyle = { count, terminal: false };
  return summaryColumns(s).map((c) => `${c.header ?? c.key}: ${c.format ? c.format(record[c.key], record, style) : String(record[c.key] ?? '')}`);
}

function summaryRecord(s: ImportSummary): Record<string, unknown> {
  return { ...s, serviceTotals: s.service };
}

function summaryColumns(s: ImportSummary): Column[] {
  // A stopped import knows only the rows it read, not the file's: said so (--json: rows, unfinished and complete false).
  const readSoFar = (v: unknown, _: unknown, t: DisplayStyle) => `${t.count(s.rows + s.unfinished)}${s.unfinished ? ` (${t.count(v as number)} with an outcome)` : ''}`;
  const columns: Column[] = [s.complete || s.dryRun ? { key: 'rows', header: 'Rows', format: number } : { key: 'rows', header: 'Rows read so far', format: readSoFar }];
  if (s.dryRun) columns.push({ key: 'wouldSend', header: 'Would send', format: number });
  else {
    columns.push(
      { key: 'new', header: 'New', format: number },
      { key: 'existing', header: 'Existing (updated)', format: number },
      { key: 'failed', header: 'Failed at the service', format: number },
    );
  }
  // Rows a failures file of an earlier import lists as duplicates: skipped, and said so (CLI.md "--failures").
  const listed = s.duplicatesFromFailuresFile;
  const duplicates = (v: unknown, _: unknown, t: DisplayStyle) =>
    listed ? `${counted(v, t)} (${listed === v ? '' : `${t.count(listed)} `}listed as duplicates by ${s.input}, a failures file: not sent)` : counted(v, t);
  // Rows the file marks unsubscribed or without permission: rejected, and said so (status-columns.ts).
  const rejected = (v: unknown, _: unknown, t: DisplayStyle) =>
    s.skipped ? `${counted(v, t)} (${s.skipped === v ? '' : `${t.count(s.skipped)} `}skipped: the file marks them unsubscribed or without permission)` : counted(v, t);
  columns.push({ key: 'rejected', header: 'Rejected before sending', format: rejected }, { key: 'duplicates', header: 'Duplicates', format: duplicates });
  // Counted in New or Existing too: imported without a value that could not be sent (the lines before the summary name the columns).
  if (s.partial) {
    columns.push({ key: 'partial', header: s.dryRun ? 'Without a value (would send)' : 'Imported without a value', format: (v, _, t) => `${plural(v as number, 'row', t.count)} (partial: a custom field value left out)` });
  }
  // CLI.md "Names": what an empty Name does to a stored one, counted.
  if (s.emptyNames) {
    const what = (v: unknown, _: unknown, t: DisplayStyle) => `${plural(v as number, 'row', t.count)} (the service empties the stored name of each that exists)`;
    columns.push({ key: 'emptyNames', header: s.dryRun ? 'Empty Name (would send)' : 'Empty Name sent', format: what });
  }
  columns.push({ key: 'batches', header: s.dryRun ? 'Batches (would send)' : 'Batches', format: number });
  if (!s.dryRun) {
    columns.push({ key: 'retries', header: 'Retries', format: number });
    // CLI.md "flow control": what riding the service's rate limit cost, when it cost anything.
    if (s.rateLimited || s.waitedMs >= 1000) {
      columns.push({ key: 'rateLimited', header: 'Rate limit', format: (v, _, t) => `${counted(v, t)} answers 429; requests held ${(s.waitedMs / 1000).toFixed(1)} s by the limit` });
    }
    const totals = s.service;
    columns.push({
      key: 'serviceTotals',
      header: 'Service totals',
      format: (_v, _r, t) => `${counted(totals.TotalNewSubscribers, t)} new, ${counted(totals.TotalExistingSubscribers, t)} existing of ${counted(totals.TotalUniqueEmailsSubmitted, t)} unique`,
    });
  }
  if (s.resumed) columns.push({ key: 'resumedBatches', header: 'From the journal', format: (v, _, t) => `${counted(v, t)} batches (not sent again)` });
  if (!s.complete) {
    // --resume needs a journal, kept only when the service acknowledged a batch; otherwise a new run sends them.
    const how = s.journal ? '--resume sends them and the rest of the file' : 'a new run sends every row of the file';
    columns.push({ key: 'unfinished', header: 'Not finished', format: (v, _, t) => `${counted(v, t)} rows (read, not yet imported: ${how})` });
  }
  if (s.blankLines) columns.push({ key: 'blankLines', header: 'Blank lines skipped', format: number });
  // Under a second a rate says nothing (3 rows in 3 ms is not 1,000 rows/s): the milliseconds alone.
  columns.push({
    key: 'elapsedMs',
    header: 'Elapsed',
    format: (v, _, t) => ((v as number) < 1000 ? `${Math.round(v as number)} ms` : `${((v as number) / 1000).toFixed(1)}s (${counted(s.rowsPerSecond, t)} rows/s)`),
  });
  if (s.failuresFile) columns.push({ key: 'failuresFile', header: 'Failures file', format: (_v, _r, t) => failuresFileContents(s, t.count) });
  if (s.journal) columns.push({ key: 'journal', header: 'Journal (kept)' });
  return columns;
}
