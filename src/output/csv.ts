// The CSV writer: the data's fields (or those --fields named), CRLF line
// ends, every cell safe to open in a spreadsheet.
import { columnsOf, flatColumns, plainText, spreadRows } from './columns.js';
import { csvCell, neutralize } from './sanitize.js';
import type { FormatWriter } from './format.js';
import type { Column } from './table.js';

/**
 * The header goes with the first record (or at the end, for a list of none
 * whose columns --fields named); a list's first records (`list`) all give it fields.
 */
export function csvWriter(named: Column[] | undefined, isTTY: boolean, out: (text: string) => Promise<void>, list?: unknown[]): FormatWriter {
  const cell = (text: string) => csvCell(isTTY ? neutralize(text) : text);
  let columns: Column[] | undefined;
  const header = () => `${columns!.map((c) => cell(c.key)).join(',')}\r\n`;
  const write = async (record: unknown) => {
    const first = !columns;
    if (first) {
      const rows = list?.length ? list.slice(0, 50) : [record];
      columns = flatColumns(columnsOf(rows, named), rows);
    }
    // An array of records spreads over rows: a spreadsheet gets no JSON to take apart.
    const lines = spreadRows(record, columns!, true).map((row) => `${row.map((v) => cell(plainText(v))).join(',')}\r\n`);
    await out(`${first ? header() : ''}${lines.join('')}`);
  };
  const end = async () => {
    if (columns || !named) return;
    columns = named;
    await out(header());
  };
  return { write, end, value: async (value) => (await write(value), end()) };
}
