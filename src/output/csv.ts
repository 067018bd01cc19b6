// The CSV writer: CRLF line ends, every cell safe to open in a spreadsheet.
import { columnsOf, flatColumns, normalizeColumns, pick, plainText, spreadRows, type ColumnsView } from './columns.js';
import { csvCell, neutralize } from './sanitize.js';
import type { Column } from './table.js';

function csvColumns(rows: unknown[], view?: ColumnsView): Column[] {
  if (view?.csv) return normalizeColumns(view.csv);
  return flatColumns(columnsOf(rows, view?.tableOnly ? undefined : view), rows);
}

export interface CsvWriter {
  write(record: unknown): Promise<void>;
  end(): Promise<void>;
  value(value: unknown): Promise<void>;
}

/** The header goes with the first record (or at the end, for a list of none). */
export function csvWriter(view: ColumnsView | undefined, isTTY: boolean, out: (text: string) => Promise<void>): CsvWriter {
  const cell = (text: string) => csvCell(isTTY ? neutralize(text) : text);
  let columns: Column[] | undefined;
  const header = () => `${columns!.map((c) => cell(c.key)).join(',')}\r\n`;
  const write = async (record: unknown) => {
    const first = !columns;
    columns ??= csvColumns([record], view);
    // A spreadsheet gets no JSON to take apart.
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
