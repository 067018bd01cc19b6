// Date-times in custom-field columns (CLI.md "What a file means"): a Date
// field keeps yyyy/mm/dd only and stores nothing of one. The field's type
// cannot be read, so they are sent as they are and their columns named once,
// before the first batch that carries one; --date-only sends the date part.
import { dateReadings, dateTimeDatePart } from '../validation/date-values.js';

export class DateTimeColumns {
  private readonly seen = new Set<string>();
  /** Columns seen since the last say(), with one value of each. */
  private fresh: [string, string][] = [];

  constructor(
    private readonly dateOnly: boolean,
    private readonly dryRun: boolean,
    private readonly notice: ((message: string) => void) | undefined,
  ) {}

  /** What to send of a trimmed value: a date-time's date part with --date-only, else the value. */
  value(key: string, value: string): string {
    const datePart = dateTimeDatePart(value);
    if (datePart === undefined) return value;
    if (!this.seen.has(key)) {
      this.seen.add(key);
      this.fresh.push([key, value]);
    }
    return this.dateOnly ? datePart : value;
  }

  /** One line for the columns first seen since the last call, before their rows' batch can be sent. */
  say(): void {
    const fresh = this.fresh;
    if (fresh.length === 0) return;
    this.fresh = [];
    const columns = fresh.map(([key, value]) => `${key} ("${value}")`).join(', ');
    const [, example] = fresh[0]!;
    const part = dateTimeDatePart(example)!;
    const readings = dateReadings(part) ?? [];
    const ymd = readings.length === 1 ? ` (${readings[0]!.ymd})` : '';
    const holds = `${fresh.length === 1 ? 'a column holds' : 'columns hold'} date-times: ${columns}`;
    this.notice?.(
      this.dateOnly
        ? `${holds}; with --date-only their yyyy/mm/dd part${ymd} ${this.dryRun ? 'would be' : 'is'} sent`
        : `${holds}; a Date field keeps yyyy/mm/dd only and stores nothing of a date-time, so they ${this.dryRun ? 'would be' : 'are'} sent as they are; ` +
            `--date-only sends their yyyy/mm/dd part${ymd} instead`,
    );
  }
}
