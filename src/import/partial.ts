// A custom-field value that cannot be sent costs that value, not the
// subscriber (CLI.md "What a file means"). rows.ts leaves it out; this keeps
// it by line only until the row's batch is answered (then `partial`), and
// counts by column for the lines said before the summary.
import type { MappingPlan } from './mapping.js';

/** The column's index, and checkFieldValue's code and message. */
export interface LeftOutValue {
  column: number;
  code: string;
  message: string;
}

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

  /** Only then need a batch's lines be looked up. */
  get pending(): boolean {
    return this.byLine.size > 0;
  }

  /** Forgotten from now on: the row's outcome is known. */
  take(line: number): LeftOutValue[] | undefined {
    const values = this.byLine.get(line);
    if (values) this.byLine.delete(line);
    return values;
  }

  /** Counted; returns the failures file's Code and Message. */
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

  /** One line per column, every such column named, with the ways out. */
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
