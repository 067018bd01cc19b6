// A report as the one JSON object `--json` prints, for --jq and --fields, which
// work on a value. Gathered up to a bound: a file may have millions of records.
import { CliError, ExitCode } from '../core/errors.js';

/** Structural, so this module does not import the renderer. */
interface ReportLike {
  readonly parts: readonly { key?: string; value: unknown; peopleOnly?: boolean }[];
}

/** Most JSON text (in characters) of a report's streamed records gathered for --jq or --fields. */
export const REPORT_VALUE_CHARS = 16 * 1024 * 1024;

class ReportTooLarge extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly kind = 'usage';
}

function isRecords(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}

/** Keyed as `--json` prints them (a part without a key spreads its fields). */
export async function reportValue(report: ReportLike): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let chars = 0;
  for (const part of report.parts) {
    if (part.peopleOnly) continue;
    const value: unknown = await part.value;
    if (isRecords(value)) {
      const records: unknown[] = [];
      for await (const record of value) {
        chars += JSON.stringify(record ?? null).length + 1;
        if (chars > REPORT_VALUE_CHARS) {
          throw new ReportTooLarge(`--jq and --fields read the whole report, and its ${part.key ?? 'records'} passed ${REPORT_VALUE_CHARS / 1024 / 1024} MiB: leave them out and read the JSON as it streams`);
        }
        records.push(record);
      }
      out[part.key ?? 'records'] = records;
    } else if (part.key === undefined) Object.assign(out, value);
    else out[part.key] = value;
  }
  return out;
}
