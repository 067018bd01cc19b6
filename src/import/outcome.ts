// How an import ends (CLI.md "Exit codes"): the one policy that turns a run's
// summary, and what stopped it, into the error the command ends with.
// Duplicates are not failures: their address was imported with an earlier row.
import { ApiError, type CliError, Interrupted, PartialFailure, UsageError } from '../core/errors.js';
import type { ImportSummary } from './tally.js';

/** Writes a count as the stream it goes to needs it (grouped at a terminal only). */
export type Count = (n: number) => string;

export interface ImportOutcome {
  summary: ImportSummary;
  /** What stopped the import (a 401, a parse failure): reported after the summary. */
  error?: Error;
  interrupted: boolean;
}

export interface ImportEnd {
  error?: Error;
  /** Lines for people after the summary. */
  notes: string[];
  /** A warning that is not the exit's reason (batches the service never acknowledged). */
  warning?: string;
}

export function importEnd({ summary, error, interrupted }: ImportOutcome, count: Count): ImportEnd {
  if (error) {
    // summary.journal is there only when the service acknowledged a batch: otherwise there is nothing to resume.
    const notes = summary.journal ? [`The journal is saved: ${summary.journal}. Fix the cause, then run the same command with --resume.`] : [];
    return { error, notes };
  }
  if (interrupted) {
    // An error, not a warning: under --json stderr then ends with {"error":{"kind":"interrupted",…}} (CLI.md "machine mode").
    const stopped = new Interrupted(
      summary.journal
        ? `interrupted after reading ${count(summary.rows + summary.unfinished)} rows: the journal is saved in ${summary.journal}; run the same command with --resume to continue`
        : 'interrupted before any batch was acknowledged: a new run sends every row',
    );
    return { error: stopped, notes: [] };
  }
  const unacknowledged = summary.unacknowledgedBatches;
  const warning =
    unacknowledged > 0
      ? `${unacknowledged} ${unacknowledged === 1 ? 'batch was' : 'batches were'} not acknowledged by the service (their rows are counted as failed)` +
        (summary.journal ? '; run the same command with --resume to send only those again' : '')
      : undefined;
  return { error: finishedOutcome(summary, count), notes: [], warning };
}

/** One line saying what was not imported and where: with --json it is what a CI log shows. */
function finishedOutcome(summary: ImportSummary, count: Count): CliError | undefined {
  const notImported = summary.failed + summary.rejected;
  if (notImported === 0) return undefined;
  const imported = summary.new + summary.existing;
  const rows = notImported === summary.rows ? `${count(notImported)} ${notImported === 1 ? 'row' : 'rows'}` : `${count(notImported)} of ${count(summary.rows)} rows`;
  const parts: string[] = [];
  if (summary.failed) parts.push(`${count(summary.failed)} failed at the service`);
  if (summary.rejected) {
    const skipped = summary.skipped ? ` (${summary.skipped === summary.rejected ? 'all' : count(summary.skipped)} skipped: the file marks them unsubscribed or without permission; --include-unsubscribed sends them)` : '';
    parts.push(`${count(summary.rejected)} rejected before sending${skipped}`);
  }
  // The failures file also lists the duplicates: named, so this line and the file agree (CLI.md "Import guarantees").
  const listed = [
    summary.duplicates && `${plural(summary.duplicates, 'duplicate', count)} (imported once, from an earlier row)`,
    summary.partial && `${count(summary.partial)} partial (imported without a value)`,
  ].filter(Boolean);
  const also = listed.length ? `, which also lists ${listed.join(' and ')}` : '';
  const where = summary.failuresFile ? `: see ${summary.failuresFile}${also}` : '';
  if (imported > 0) return new PartialFailure(`${rows} not imported (${parts.join(', ')})${where}`);
  // Exit 1, as the service's own refusals: the rows failed there (their codes are in the failures file).
  if (summary.failed > 0) return new ApiError({ status: 0, message: `${rows} not imported (${parts.join(', ')}); none was imported${where}`, method: 'POST', path: `/email/subscribers/${summary.list}/import` });
  const error = new UsageError(`${rows} not imported (${parts.join(', ')}); nothing was sent${where}`);
  error.hint = summary.failuresFile ? undefined : 'Run again with --dry-run to see every row and its reason, or with --failures <file.csv> to keep them.';
  return error;
}

/** As the import would end: 3 when some rows would be sent and some not, 2 when none would be. */
export function dryRunEnd(summary: ImportSummary, count: Count): CliError | undefined {
  if (summary.rejected === 0) return undefined;
  const skipped = summary.skipped ? ` (${summary.skipped === summary.rejected ? 'all' : count(summary.skipped)} skipped: the file marks them; --include-unsubscribed sends them)` : '';
  const rows = `${count(summary.rejected)} of ${count(summary.rows)} rows`;
  if ((summary.wouldSend ?? 0) > 0) return new PartialFailure(`${rows} would be rejected before sending${skipped}; the others would be sent`);
  return new UsageError(`${rows} would be rejected before sending${skipped}: none would be sent`);
}

export const plural = (n: number, word: string, count: Count) => `${count(n)} ${n === 1 ? word : `${word}s`}`;
