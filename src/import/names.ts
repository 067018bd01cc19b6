// Rows sent without a name (CLI.md "Names"). service-spec.md "Import
// request": every entry carries Name (required), and the service updates an
// existing subscriber's name with what is sent ("Add subscriber": name and
// custom fields are updated), so an empty Name empties a stored name. It
// cannot be left out, so the import stops before sending anything unless
// --allow-empty-names says to send such rows as they are (then it says so,
// once, before the first batch that carries one, and the summary counts them).
import { hinted, UsageError } from '../core/errors.js';
import type { ImportInput } from './input.js';
import type { MappingPlan } from './mapping.js';
import type { TextShape } from './source.js';
import { lineAt } from './structure-check.js';
import { scanChunks } from './text.js';

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

/**
 * Stops the import before anything is sent when rows would be sent with an
 * empty Name and --allow-empty-names was not given (CLI.md "Names"), as the
 * consent check stops a file with no consent column. The structure check
 * counted them (source.ts checkText).
 */
export async function refuseEmptyNames(input: ImportInput, shape: TextShape, plan: MappingPlan, header: readonly string[], dryRun: boolean): Promise<void> {
  const found = shape.emptyNames;
  if (!found) throw new Error('the rows without a name were not counted');
  if (found.rows === 0) return;
  const rows = found.rows === 1 ? '1 row' : `${found.rows.toLocaleString('en-US')} rows`;
  let what: string;
  if (plan.nameColumns.length === 0) {
    what = `${input.name} has no name column: ${found.rows === 1 ? 'its 1 row' : `its ${rows}`} would be sent with an empty Name`;
  } else {
    const columns = plan.nameColumns.map((i) => header[i]!.trim()).join(' + ');
    const line = input.preambleLines + (await lineAt(scanChunks(input), found.firstOffset));
    const cells = plan.nameColumns.length > 1 ? 'empty name cells' : 'an empty name cell';
    what = `${input.name}: ${rows} ${found.rows === 1 ? 'has' : 'have'} an address and ${cells} (${columns}; the first at line ${line}) and would be sent with an empty Name`;
  }
  throw hinted(
    new UsageError(`${what}, ${WHAT_HAPPENS}; give --allow-empty-names to send them as they are`),
    `Or import the names too: fill the cells, or name the column with --map "<Column>=Name". ${dryRun ? 'With --allow-empty-names the dry run shows the rest.' : 'Nothing was sent.'}`,
  );

}
