// A failed command's error on stderr: one line with an optional hint, or one
// JSON object in machine mode. What to say is src/core/error-exit.ts's.
import type { ErrorReport } from '../core/error-exit.js';
import type { Redactor } from '../core/redact.js';
import type { Writable } from './writable.js';
import { machineLine } from './messages.js';
import { neutralize, neutralizeLines } from './sanitize.js';

export function printError(stderr: Writable, report: ErrorReport, options: { json: boolean; redactor: Redactor }): void {
  const { redactor } = options;
  const message = redactor.redact(report.message);
  if (options.json) {
    if (report.stack) stderr.write(`${machineLine({ type: 'debug', message: redactor.redact(report.stack) })}\n`);
    const error: Record<string, unknown> = { kind: report.kind, status: report.status ?? null, code: report.code ?? null, message };
    if (report.resultData !== undefined) error.resultData = report.resultData;
    // machineLine escapes controls in message and hint; error.message keeps the service's value exactly, for scripts.
    const line: Record<string, unknown> = { type: 'error', message: report.fromService ? neutralize(message) : message, error };
    if (report.hint) line.hint = report.hint;
    stderr.write(`${redactor.redact(machineLine(line))}\n`);
    return;
  }
  if (report.stack) stderr.write(`${redactor.redact(report.stack)}\n`);
  if (report.plain) {
    stderr.write(`${neutralizeLines(message)}\n`);
    return;
  }
  const label = report.code !== undefined ? `error ${report.code}` : 'error';
  const status = report.status && report.code === undefined && !report.statusNamed ? ` (HTTP ${report.status})` : '';
  // The service's message stays one line (a line break in it cannot pass for
  // a line of ours); said here, not left to the stderr guard, so no path forgets it.
  stderr.write(`${label}: ${report.fromService ? neutralize(message) : neutralizeLines(message)}${status}\n`);
  for (const line of resultDataLines(report.resultData)) stderr.write(`  ${neutralize(redactor.redact(line))}\n`);
  if (report.hint) stderr.write(`hint: ${neutralizeLines(redactor.redact(report.hint))}\n`);
}

const RESULT_DATA_LINES = 12;

/** A coded error's ResultData for people: known codes' shapes, any other object as `Key: value` lines. */
function resultDataLines(data: unknown): string[] {
  if (data === undefined || data === null || data === '') return [];
  const lines: string[] = [];
  const items = Array.isArray(data) ? data : [data];
  for (const item of items) {
    if (item && typeof item === 'object' && !Array.isArray(item)) lines.push(...objectLines(item as Record<string, unknown>));
    else lines.push(scalar(item));
  }
  if (lines.length <= RESULT_DATA_LINES) return lines;
  return [...lines.slice(0, RESULT_DATA_LINES), `… ${lines.length - RESULT_DATA_LINES} more (--json shows them all)`];
}

function objectLines(o: Record<string, unknown>): string[] {
  // service-spec.md 277: {RuleGroupIndex, RuleIndex, RuleType, Clause, Problem}, indexes 0-based.
  if (typeof o.Problem === 'string' && typeof o.RuleGroupIndex === 'number') {
    const where = `group ${o.RuleGroupIndex + 1}${typeof o.RuleIndex === 'number' ? `, rule ${o.RuleIndex + 1}` : ''}`;
    const rule = [o.RuleType, o.Clause].filter((p) => p !== undefined && p !== null && p !== '').map(scalar).join(' ');
    return [`${where}${rule ? ` (${rule})` : ''}: ${o.Problem}`];
  }
  // 210: the import's counts, then each failure.
  if (Array.isArray(o.FailureDetails)) {
    const counts = ['TotalUniqueEmailsSubmitted', 'TotalNewSubscribers', 'TotalExistingSubscribers']
      .filter((k) => o[k] !== undefined)
      .map((k) => `${k} ${scalar(o[k])}`);
    const failures = (o.FailureDetails as unknown[]).map((f) => {
      const d = (f ?? {}) as { EmailAddress?: unknown; Code?: unknown; Message?: unknown };
      return `${scalar(d.EmailAddress)}: ${d.Code !== undefined ? `${scalar(d.Code)} ` : ''}${scalar(d.Message)}`.trim();
    });
    return [...(counts.length ? [counts.join(', ')] : []), ...failures];
  }
  const pairs = Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return pairs.length ? [pairs.map(([k, v]) => `${k}: ${scalar(v)}`).join(', ')] : [];
}

function scalar(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
