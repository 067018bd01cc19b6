// The CSV writer (CLI.md `-o csv`): a header and one row a record, CRLF line
// ends, every cell safe to open in a spreadsheet (sanitize.ts csvCell: no
// live formula). Written to a terminal, controls from outside show as
// visible escapes; in a pipe or a file the text is the data unchanged.
import { columnsOf, flatColumns, normalizeColumns, pick, plainText, spreadRows, type ColumnsView } from './columns.js';
import { csvCell, neutralize } from './sanitize.js';
import type { Column } from './table.js';

/**
 * CSV's columns: the view's own for CSV, as declared; else the table's
 * (unless they are the table's only) or the records' fields, an object's
 * and an array of records' split into their fields (columns.ts flatColumns).
 */
function csvColumns(rows: unknown[], view?: ColumnsView): Column[] {
  if (view?.csv) return normalizeColumns(view.csv);
  return flatColumns(columnsOf(rows, view?.tableOnly ? undefined : view), rows);
}

export interface CsvWriter {
  write(record: unknown): Promise<void>;
  end(): Promise<void>;
  /** One value that is not a list: a header and its one row. */
  value(value: unknown): Promise<void>;
}

/** Writes records as CSV through `out`, the header with the first record (or at the end, for a list of none). */
export function csvWriter(view: ColumnsView | undefined, isTTY: boolean, out: (text: string) => Promise<void>): CsvWriter {
  const cell = (text: string) => csvCell(isTTY ? neutralize(text) : text);
  let columns: Column[] | undefined;
  const header = () => `${columns!.map((c) => cell(c.key)).join(',')}\r\n`;
  const write = async (record: unknown) => {
    const first = !columns;
    columns ??= csvColumns([record], view);
    // An array spreads over rows, one element a row (columns.ts spreadRows); a spreadsheet gets no JSON to take apart.
    const values = view?.csv ? [columns.map((c) => pick(record, c.key))] : spreadRows(record, columns, true);
    const rows = values.map((row) => `${row.map((v) => cell(plainText(v))).join(',')}\r\n`);
    await out(`${first ? header() : ''}${rows.join('')}`);
  };
  // A list of no records still has its header when its columns are known.
  const end = async () => {
    if (columns || !(view?.csv || (view?.columns && !view.tableOnly))) return;
    columns = csvColumns([], view);
    await out(header());
  };
  return { write, end, value: async (value) => (await write(value), end()) };
}
