// email subscribers import <file.csv|-> --list <id> (definition: import.ts): POST
// /email/subscribers/{listId}/import in batches (service-spec.md "Import
// subscribers"), through the streaming pipeline of src/import. This file
// checks the options, wires progress, Ctrl-C and the output, and picks the
// exit code: 0 all imported, 3 some rows not imported and some imported, 1
// none imported (rows failed at the service), 4 the key refused, 2 the file
// or the options are unusable or every row rejected (nothing sent), 130
// interrupted (journal saved).
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { CliError, ExitCode, Interrupted, PartialFailure, UsageError } from '../../core/errors.js';
import { DEFAULT_IMPORT_TIMEOUT_MS, type ApiClient } from '../../core/http.js';
import { poolFor } from '../../core/pool.js';
import { describeDelimiter, parseDelimiterFlag } from '../../import/source.js';
import { runImport, type ImportOptions, type ImportSummary, type PlanReport, type RowProblem } from '../../import/importer.js';
import { isCopied, openInput, parseEncoding } from '../../import/input.js';
import { describeColumn } from '../../import/mapping.js';
import type { Column, DisplayStyle } from '../../output/render.js';
import { neutralize } from '../../output/sanitize.js';
import { createProgress, progressMode } from '../../output/progress.js';
import type { Consent } from '../../validation/subscriber-fields.js';
import type { ImportInput } from './import.js';

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
  const { file, dryRun, resume } = opts;
  if (dryRun && resume) throw new UsageError('--dry-run sends nothing, so there is nothing to --resume');
  if (dryRun && opts.journal !== undefined) throw new UsageError('--dry-run sends nothing and keeps no --journal');
  if (file === '-' && resume && opts.journal === undefined) {
    throw new UsageError('--resume needs --journal <file> when the CSV comes from standard input');
  }
  return {
    file,
    options: {
      listId: opts.list,
      map: opts.map,
      onlyMapped: opts.onlyMapped,
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
      dryRun,
      failuresPath: opts.failures === undefined ? undefined : resolve(ctx.cwd, opts.failures),
      resume,
      timeoutMs: ctx.globals.timeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS,
    },
    journalFlag: opts.journal,
    encoding: parseEncoding(opts.encoding),
    progressLines: opts.progress,
  };
}

export async function importCommand(opts: ImportInput, ctx: Context): Promise<number> {
  const parsed = parseOptions(opts, ctx);
  if (parsed.file === '-' && ctx.io.stdinIsTTY) {
    // Otherwise a terminal just waits, and looks stuck.
    ctx.log.info('Reading CSV from standard input: paste or type the rows, then press Ctrl-D on a new line (Ctrl-Z, then Enter, on Windows). Ctrl-C stops.');
  }
  // A pipe is copied and has no place beside it for a journal (input.ts): said before it is read.
  if (parsed.options.resume && parsed.journalFlag === undefined && (await isCopied(parsed.file, ctx.cwd))) {
    throw new UsageError(`--resume needs --journal <file> when the CSV comes from a pipe (${parsed.file}): no journal is kept beside a pipe`);
  }
  // ctx.signal: Ctrl-C while a pipe is copied ends the copy at once (CLI.md "signals").
  const input = await openInput(parsed.file, ctx.cwd, ctx.io.stdin, parsed.encoding, ctx.signal);
  try {
    const journalPath = parsed.options.dryRun
      ? undefined
      : parsed.journalFlag !== undefined
        ? resolve(ctx.cwd, parsed.journalFlag)
        : input.spooled
          ? undefined
          : `${input.path}.${parsed.options.listId.slice(0, 8).toLowerCase()}.import-journal`;
    const options: ImportOptions = { ...parsed.options, input, journalPath };
    return await (options.dryRun ? dryRun(options, ctx) : realRun(options, ctx, parsed.progressLines));
  } finally {
    await input.cleanup();
  }
}

// ---- the import --------------------------------------------------------------------

async function realRun(options: ImportOptions, ctx: Context, progressLines: boolean): Promise<number> {
  // One keep-alive connection per batch in flight, so --concurrency 16 means 16 requests on the wire.
  const client: ApiClient = await ctx.api(poolFor(options.concurrency));
  const progress = await createProgress(
    progressMode({ stderrIsTTY: ctx.io.stderrIsTTY, quiet: ctx.globals.quiet, linesRequested: progressLines, machine: ctx.log.machine }),
    ctx.io.stderr,
    `importing ${options.input.name}`,
    undefined,
    ctx.log.machine ? (message, fields) => ctx.log.emit('progress', message, fields) : undefined,
  );
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
  // Memory must not grow with the file (src/core/heap.ts): applied only when the process entry gives the hook.
  const heap = (await ctx.heap?.())?.boundedHeapForImport({ semiSpaceBytes: 4 << 20, rowsBetweenCollections: 100_000 });
  let outcome;
  try {
    outcome = await runImport(options, {
      client,
      stopSignal: stop.signal,
      abandonSignal: abandon.signal,
      onProgress: (p) => progress.update(p),
      onProblem: (p) => {
        const list = p.outcome === 'duplicate' ? shownDuplicates : shown;
        if (list.length < PROBLEMS_SHOWN) list.push(p);
      },
      onNotice: (message) => ctx.log.warn(message),
      onBatchDone: (batch) => {
        if (!batch.fromJournal) heap?.(batch.rows);
      },
      onPlan: (plan) => ctx.log.debug(`mapping (${describeDelimiter(plan.delimiter)}, ${plan.encoding}): ${plan.columns.map(describeColumn).join('; ')}`),
    });
  } finally {
    progress.stop();
    offInterrupt();
  }
  const { summary, error, interrupted } = outcome;
  await printSummary(summary, ctx);
  if (ctx.out.format === 'table') reportProblems([...shown, ...shownDuplicates].slice(0, PROBLEMS_SHOWN), summary, ctx);
  if (error) {
    // summary.journal is there only when the service acknowledged a batch: otherwise there is nothing to resume.
    if (summary.journal) ctx.log.info(`The journal is saved: ${summary.journal}. Fix the cause, then run the same command with --resume.`);
    throw error;
  }
  if (interrupted) {
    // An error, not a warning: under --json stderr then ends with {"error":{"kind":"interrupted",…}} (CLI.md "machine mode").
    throw new Interrupted(
      summary.journal
        ? `interrupted: the journal is saved in ${summary.journal}; run the same command with --resume to continue`
        : 'interrupted before any batch was acknowledged: a new run sends every row',
    );
  }
  if (summary.unacknowledgedBatches > 0) {
    ctx.log.warn(
      `${summary.unacknowledgedBatches} ${summary.unacknowledgedBatches === 1 ? 'batch was' : 'batches were'} not acknowledged by the service (their rows are counted as failed)` +
        (summary.journal ? '; run the same command with --resume to send only those again' : ''),
    );
  }
  const outcomeError = importOutcome(summary);
  if (outcomeError) throw outcomeError;
  return 0;
}

/**
 * The exit code of a finished import (CLI.md "Exit codes"), as an error whose
 * one line says what was not imported and where the rows are: it reaches
 * stderr whatever the output format (with --json the summary is on stdout and
 * this is the reason a CI log shows). 3 when some rows were imported and some
 * not; when none was imported, 1 if rows failed at the service, 2 if every
 * row was rejected before sending (nothing was sent). Duplicates are not
 * failures: their address was imported with an earlier row.
 */
function importOutcome(summary: ImportSummary): CliError | undefined {
  const notImported = summary.failed + summary.rejected;
  if (notImported === 0) return undefined;
  const imported = summary.new + summary.existing;
  const count = notImported === summary.rows ? `${grouped(notImported)} ${notImported === 1 ? 'row' : 'rows'}` : `${grouped(notImported)} of ${grouped(summary.rows)} rows`;
  const parts: string[] = [];
  if (summary.failed) parts.push(`${grouped(summary.failed)} failed at the service`);
  if (summary.rejected) parts.push(`${grouped(summary.rejected)} rejected before sending`);
  // The failures file also lists the duplicates: named, so this line and the file agree (CLI.md "Import guarantees").
  const also = summary.duplicates ? `, which also lists ${plural(summary.duplicates, 'duplicate', grouped)} (imported once, from an earlier row)` : '';
  const where = summary.failuresFile ? `: see ${summary.failuresFile}${also}` : '';
  if (imported > 0) return new PartialFailure(`${count} not imported (${parts.join(', ')})${where}`);
  if (summary.failed > 0) return new ImportFailed(`${count} not imported (${parts.join(', ')}); none was imported${where}`);
  const error = new UsageError(`${count} not imported (${parts.join(', ')}); nothing was sent${where}`);
  error.hint = summary.failuresFile ? undefined : 'Run again with --dry-run to see every row and its reason, or with --failures <file.csv> to keep them.';
  return error;
}

/** No row was imported, and rows failed at the service (exit 1). */
class ImportFailed extends CliError {
  readonly exitCode = ExitCode.failure;
  constructor(message: string) {
    super(message);
    this.name = 'ImportFailed';
  }
}

function reportProblems(shown: RowProblem[], summary: ImportSummary, ctx: Context): void {
  const total = summary.failed + summary.rejected + summary.duplicates;
  if (total === 0 || ctx.globals.quiet) return;
  // The message and the address come from the file or the service: neutralised whole, so a line break in a cell shows as \n and cannot start a line of its own.
  const lines = shown.map((p) => `  line ${p.line}: ${p.outcome}${p.code && p.code !== p.outcome ? ` (${p.code})` : ''}: ${neutralize(`${p.message}${p.email ? ` <${p.email}>` : ''}`)}`);
  ctx.log.info(`Rows not imported:\n${lines.join('\n')}`);
  if (total > shown.length) {
    ctx.log.info(summary.failuresFile ? `  … ${total - shown.length} more; every one is in ${summary.failuresFile}` : `  … ${total - shown.length} more; --failures <file.csv> writes every one with its original columns`);
  } else if (summary.failuresFile) {
    ctx.log.info(`  (also in ${summary.failuresFile})`);
  }
}

// ---- --dry-run -----------------------------------------------------------------------

/**
 * The whole pipeline but the sending: the mapping, every rejected row and
 * duplicate (streamed, so a large file's report does not sit in memory), the
 * first request body, and the counts. No request at all, so no key is needed.
 */
async function dryRun(options: ImportOptions, ctx: Context): Promise<number> {
  const json = ctx.out.format === 'json';
  let chain: Promise<void> = Promise.resolve();
  const then = (step: () => Promise<void>) => (chain = chain.then(step));
  let plan: PlanReport | undefined;
  let firstRequest: { method: string; path: string; body: unknown } | undefined;
  let pendingJson: string | undefined;
  // ndjson and csv: the problems as records, then the report as one more.
  const machine = ctx.out.format === 'ndjson' || ctx.out.format === 'csv';
  // Opened with the first problem: an empty one would print its own '(no results)' beside our '(none)'.
  let problems: ReturnType<typeof ctx.out.stream> | undefined;
  const problemStream = () => (problems ??= ctx.out.stream({ columns: PROBLEM_COLUMNS }));
  // ndjson and csv keep their stream whatever comes (a CSV of no problems still has its header).
  if (machine) problemStream();

  const outcome = await runImport(options, {
    onPlan: (p) => {
      plan = p;
      if (json) {
        then(() => ctx.out.line(`{\n  "dryRun": true,\n  "mapping": ${indentJson(mappingJson(p), 2)},\n  "problems": [`));
      } else if (!machine) {
        then(async () => {
          ctx.log.info(`${options.input.name}: delimiter ${describeDelimiter(p.delimiter)}, ${p.encoding}; columns:`);
          await ctx.out.print(mappingJson(p), { columns: MAPPING_COLUMNS });
          ctx.log.info('Rows that would not be imported:');
        });
      }
    },
    onProblem: (p) => {
      const record = { Line: p.line, Outcome: p.outcome, Code: p.code, Message: p.message, EmailAddress: p.email };
      if (json) {
        const previous = pendingJson;
        pendingJson = `    ${JSON.stringify(record)}`;
        if (previous !== undefined) then(() => ctx.out.line(`${previous},`));
      } else {
        then(() => problemStream().write(record));
      }
    },
    onFirstRequest: (request) => {
      firstRequest = request;
    },
    onNotice: (message) => ctx.log.warn(message),
  });
  const { summary, error } = outcome;
  await chain;
  if (error) throw error;
  const report = { ...summary, firstRequest: firstRequest ?? null };
  if (json) {
    if (!plan) await ctx.out.line('{\n  "dryRun": true,\n  "mapping": [],\n  "problems": [');
    if (pendingJson !== undefined) await ctx.out.line(pendingJson);
    // The rest of the report: the summary's fields after the streamed problems.
    await ctx.out.line(`  ],${JSON.stringify(report, null, 2).slice(1)}`);
  } else {
    await problems?.end();
    if (!machine) {
      if (!problems) ctx.log.info('  (none)');
      if (firstRequest) {
        ctx.log.info(`First request: ${firstRequest.method} ${firstRequest.path}`);
        await ctx.out.json(abbreviateBody(firstRequest.body));
      }
      await ctx.out.print(summaryRecord(summary), { columns: summaryColumns(summary) });
      ctx.log.info('Dry run: nothing was sent.');
    } else {
      await ctx.out.print(report);
    }
  }
  // As the import would exit (CLI.md "Exit codes"): 3 when some rows would be sent and some not, 2 when none would be.
  if (summary.rejected === 0) return 0;
  return (summary.wouldSend ?? 0) > 0 ? 3 : 2;
}

const PROBLEM_COLUMNS: Column[] = [{ key: 'Line' }, { key: 'Outcome' }, { key: 'Code' }, { key: 'EmailAddress', header: 'Email address' }, { key: 'Message' }];
const MAPPING_COLUMNS: Column[] = [{ key: 'column', header: 'Column' }, { key: 'target', header: 'Becomes' }, { key: 'why', header: 'Why' }];

function mappingJson(plan: PlanReport) {
  return plan.columns.map((c) => ({
    column: c.header,
    position: c.index + 1,
    target: c.target === 'CustomField' ? `CustomFields[${c.key}]` : c.target === 'ignore' ? '-' : c.target,
    why: { map: '--map', auto: 'recognised header', rest: 'other column', 'empty header': 'no header', 'failures file': 'added by --failures', 'only-mapped': 'not mapped (--only-mapped)' }[c.source] + (c.note ? ` (${c.note})` : ''),
  }));
}

/** The first body on a terminal: three subscribers and a count of the rest. */
function abbreviateBody(body: unknown): unknown {
  const b = body as { Subscribers?: unknown[] } & Record<string, unknown>;
  if (!Array.isArray(b?.Subscribers) || b.Subscribers.length <= 3) return body;
  return { ...b, Subscribers: [...b.Subscribers.slice(0, 3), `… ${b.Subscribers.length - 3} more`] };
}

function indentJson(value: unknown, spaces: number): string {
  return JSON.stringify(value, null, 2).split('\n').join(`\n${' '.repeat(spaces)}`);
}

// ---- the summary ---------------------------------------------------------------------

async function printSummary(summary: ImportSummary, ctx: Context): Promise<void> {
  if (ctx.out.format !== 'table') {
    await ctx.out.print(summary);
    return;
  }
  await ctx.out.print(summaryRecord(summary), { columns: summaryColumns(summary) });
}

/** Counts in a message on stderr, which a person reads: grouped. */
const grouped = (n: number) => n.toLocaleString('en-US');
// Counts in the summary (stdout) are written through the renderer's style: grouped on a terminal, plain digits in a pipe (CLI.md "numbers").
type Count = DisplayStyle['count'];
const counted = (v: unknown, t: DisplayStyle) => (typeof v === 'number' ? t.count(v) : String(v ?? ''));
/** A column whose value is a count. */
const number = (v: unknown, _record: unknown, t: DisplayStyle) => counted(v, t);
const plural = (n: number, word: string, count: Count) => `${count(n)} ${n === 1 ? word : `${word}s`}`;

/** What the failures file holds, by outcome: its rows are the failed, rejected and duplicate rows of the summary. */
function failuresFileContents(s: ImportSummary, count: Count): string {
  const total = s.failed + s.rejected + s.duplicates;
  if (total === 0) return `${s.failuresFile} (no rows)`;
  const parts = [s.failed && `${count(s.failed)} failed`, s.rejected && `${count(s.rejected)} rejected`, s.duplicates && plural(s.duplicates, 'duplicate', count)].filter(Boolean);
  return `${s.failuresFile} (${plural(total, 'row', count)}: ${parts.join(', ')})`;
}

function summaryRecord(s: ImportSummary): Record<string, unknown> {
  return { ...s, serviceTotals: s.service };
}

function summaryColumns(s: ImportSummary): Column[] {
  const columns: Column[] = [{ key: 'rows', header: 'Rows', format: number }];
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
  columns.push({ key: 'rejected', header: 'Rejected before sending', format: number }, { key: 'duplicates', header: 'Duplicates', format: duplicates });
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
    const how = s.journal ? '--resume sends them' : 'a new run sends them';
    columns.push({ key: 'unfinished', header: 'Not finished', format: (v, _, t) => `${counted(v, t)} rows (${how})` });
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
