// Prints a failed command's error on stderr (CLI.md "errors"): one line
// `error 206: …` with an optional hint, or with --json one JSON object. The
// decision of what to say is src/core/error-exit.ts's.
import type { ErrorReport } from '../core/error-exit.js';
import type { Redactor } from '../core/redact.js';
import type { Writable } from './edges.js';
import { jsonForTerminal, neutralize, neutralizeLines } from './sanitize.js';

export function printError(stderr: Writable, report: ErrorReport, options: { json: boolean; redactor: Redactor }): void {
  const { redactor } = options;
  if (report.stack) stderr.write(`${redactor.redact(report.stack)}\n`);
  const message = redactor.redact(report.message);
  if (options.json) {
    const error: Record<string, unknown> = { status: report.status ?? null, code: report.code ?? null, message };
    if (report.resultData !== undefined) error.resultData = report.resultData;
    // Still one valid JSON object with the service's message, its controls escaped (CLI.md "untrusted text").
    stderr.write(`${jsonForTerminal(redactor.redact(JSON.stringify({ error })))}\n`);
    return;
  }
  const label = report.code !== undefined ? `error ${report.code}` : 'error';
  const status = report.status && report.code === undefined ? ` (HTTP ${report.status})` : '';
  // The service's message stays one line, whatever it holds (a line break in it cannot pass
  // for a line of ours); ours may have several. The stderr guard (src/output/edges.ts) would
  // neutralise the rest anyway; said here so that no path forgets it.
  stderr.write(`${label}: ${report.fromService ? neutralize(message) : neutralizeLines(message)}${status}\n`);
  if (report.hint) stderr.write(`hint: ${neutralizeLines(redactor.redact(report.hint))}\n`);
}
