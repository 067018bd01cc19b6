// Rows sent without a name (CLI.md "Names"). service-spec.md "Import
// request": every entry carries Name (required), and the service updates an
// existing subscriber's name with what is sent ("Add subscriber": name and
// custom fields are updated), so an empty Name empties a stored name. It
// cannot be left out, so the import says so, once, before the first batch
// that carries such a row is sent, and the summary counts the rows.
import type { MappingPlan } from './mapping.js';

const WHAT_HAPPENS = 'and the service replaces the name of an existing subscriber with what is sent (a stored name is emptied)';

/**
 * The line for a file that maps no column to Name: every row is sent with an
 * empty Name. `records`: what the structure check counted before sending (an
 * upper bound: blank lines are among them). Undefined when some column is the name.
 */
export function noNameColumnNotice(plan: MappingPlan, inputName: string, dryRun: boolean, records: number): string | undefined {
  if (plan.nameColumns.length > 0) return undefined;
  return (
    `${inputName} has no name column: every row (up to ${records.toLocaleString('en-US')}) ${dryRun ? 'would be' : 'is'} sent with an empty Name, ${WHAT_HAPPENS}; ` +
    'to keep stored names, import them too: a name column, or --map "<Column>=Name"'
  );
}

/** Counts the rows about to be batched with an empty Name; the first one of a file that has a name column is said. */
export class EmptyNames {
  count = 0;
  private readonly columns: string | undefined;

  constructor(
    plan: MappingPlan,
    header: readonly string[],
    private readonly inputName: string,
    private readonly dryRun: boolean,
    private readonly say: ((message: string) => void) | undefined,
  ) {
    // No name column: noNameColumnNotice() said it before anything was read.
    this.columns = plan.nameColumns.length > 0 ? plan.nameColumns.map((i) => header[i]!.trim()).join(' + ') : undefined;
  }

  /** A row whose entry has an empty Name, before its batch can be sent. */
  row(line: number): void {
    if (this.count++ > 0 || this.columns === undefined) return;
    const cell = this.columns.includes(' + ') ? 'empty name cells' : 'an empty name cell';
    this.say?.(
      `line ${line} of ${this.inputName} has ${cell} (${this.columns}): rows like it ${this.dryRun ? 'would be' : 'are'} sent with an empty Name, ${WHAT_HAPPENS}; ` +
        'to keep stored names, fill those cells (the summary counts these rows)',
    );
  }
}
