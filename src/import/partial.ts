// Values left out of rows that are sent all the same (CLI.md "What a file
// means"): a value that cannot be sent (over 250 characters, a date no reading
// fits) in a column that becomes a custom field costs that value, not the
// subscriber. rows.ts leaves the value out and says which; this keeps them by
// line until the row's outcome is known (its batch acknowledged: the row is
// `partial`; a duplicate or a failure: forgotten), counts them by column for
// the lines said before the summary, and words the failures file's Code and
// Message. Memory holds only the rows with a value left out that are in flight.
import type { MappingPlan } from './mapping.js';

/** A value rows.ts left out: the column's index, and why (the code and message of checkFieldValue). */
export interface LeftOutValue {
  column: number;
  code: string;
  message: string;
}

/** How a reason reads in the line per column. */
const REASONS: Record<string, string> = {
  'too-long': 'over 250 characters',
  'invalid-date': 'not a date',
  'ambiguous-date': 'an ambiguous date',
};

export class LeftOutValues {
  /** Rows imported (with --dry-run: to be sent) with a value left out. */
  rows = 0;
  private readonly byLine = new Map<number, LeftOutValue[]>();
  /** By column index: values left out of rows imported, and how many for each reason. */
  private readonly columns = new Map<number, Map<string, number>>();

  constructor(private readonly plan: MappingPlan) {}

  /** A row sent without these values; its outcome comes with its batch. */
  note(line: number, values: LeftOutValue[]): void {
    this.byLine.set(line, values);
  }

  /** Some row in flight has a value left out (a batch's lines need looking up). */
  get pending(): boolean {
    return this.byLine.size > 0;
  }

  /** The values left out of the row at `line`, forgotten from now on (its outcome is known). */
  take(line: number): LeftOutValue[] | undefined {
    const values = this.byLine.get(line);
    if (values) this.byLine.delete(line);
    return values;
  }

  /** The row was imported without them: counted; returns the failures file's Code and Message. */
  imported(values: LeftOutValue[]): [string, string] {
    this.rows++;
    for (const v of values) {
      let reasons = this.columns.get(v.column);
      if (!reasons) this.columns.set(v.column, (reasons = new Map()));
      reasons.set(v.code, (reasons.get(v.code) ?? 0) + 1);
    }
    const codes = [...new Set(values.map((v) => v.code))].join(',');
    return [codes, `imported without ${values.length === 1 ? 'this value' : 'these values'}: ${values.map((v) => v.message).join('; ')}`];
  }

  /** One line per column whose values were left out, every such column named, with the ways out. */
  lines(o: { dryRun: boolean; failuresFile?: string }): string[] {
    const lines: string[] = [];
    for (const [column, reasons] of [...this.columns].sort((a, b) => a[0] - b[0])) {
      const header = (this.plan.columns[column]?.header ?? '').trim();
      const count = [...reasons.values()].reduce((a, b) => a + b, 0);
      const why = [...reasons].map(([code, n]) => `${reasons.size > 1 ? `${n} ` : ''}${REASONS[code] ?? code}`).join(', ');
      const values = count === 1 ? '1 value' : `${count.toLocaleString('en-US')} values`;
      const fix = o.failuresFile ? `fix ${count === 1 ? 'it' : 'them'} in ${o.failuresFile} (Outcome partial) and import it again, or ` : '';
      lines.push(
        `column "${header}": ${values} ${o.dryRun ? 'would be' : count === 1 ? 'was' : 'were'} left out (${why}); ` +
          `${count === 1 ? 'its subscriber' : 'their subscribers'} ${o.dryRun ? 'would be sent' : count === 1 ? 'is imported' : 'are imported'} without ${count === 1 ? 'it' : 'them'}: ` +
          `${fix}leave the column out with --only-mapped or --map "${header}=-" (--strict refuses such rows whole)`,
      );
    }
    return lines;
  }
}
