// Rows sent without a name (CLI.md "Names"): Name cannot be left out of an
// entry, and an empty one empties a stored name, so the import stops before
// sending unless --allow-empty-names; then it says so once, and counts them.
import { hinted, UsageError } from '../core/errors.js';
import type { ImportInput } from './input.js';
import type { MappingPlan } from './mapping.js';
import type { TextShape } from './source.js';
import { lineAt, scanStructure } from './structure-check.js';
import { scanChunks } from './text.js';

const WHAT_HAPPENS = 'and the service replaces the name of an existing subscriber with what is sent (a stored name is emptied)';

/** For a file that maps no column to Name; `records` is an upper bound (blank lines among them). */
export function noNameColumnNotice(plan: MappingPlan, inputName: string, dryRun: boolean, records: number): string | undefined {
  if (plan.nameColumns.length > 0) return undefined;
  return (
    `${inputName} has no name column: every row (up to ${records.toLocaleString('en-US')}) ${dryRun ? 'would be' : 'is'} sent with an empty Name, ${WHAT_HAPPENS}; ` +
    'to keep stored names, import them too: a name column, or --map "<Column>=Name"'
  );
}

/** Counts the rows batched with an empty Name; the first one of a file with a name column is said. */
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

  row(line: number): void {
    if (this.count++ > 0 || this.columns === undefined) return;
    const cell = this.columns.includes(' + ') ? 'empty name cells' : 'an empty name cell';
    this.say?.(
      `line ${line} of ${this.inputName} has ${cell} (${this.columns}): rows like it ${this.dryRun ? 'would be' : 'are'} sent with an empty Name, ${WHAT_HAPPENS}; ` +
        'to keep stored names, fill those cells (the summary counts these rows)',
    );
  }
}

/** Stops the import before anything is sent, as a missing consent column does; the structure check counted the rows. */
export async function refuseEmptyNames(input: ImportInput, shape: TextShape, plan: MappingPlan, header: readonly string[], dryRun: boolean): Promise<void> {
  let found = shape.emptyNames;
  // Counted again, by the parser's header, where the structure check read the header otherwise (odd quoting).
  if (found?.header?.join('\0') !== header.join('\0')) {
    const report = await scanStructure(scanChunks(input), shape.delimiter.charCodeAt(0), false, () => plan);
    found = 'kind' in report ? undefined : report.emptyNames;
  }
  if (!found || found.rows === 0) return;
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
