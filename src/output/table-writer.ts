// The table format's writer: a bordered table on a terminal (in chunks when it
// streams), tab-separated lines without header in a pipe (as gh does).
import { columnsOf, flatColumns, normalizeColumns, pick, plainText, spreadRows } from './columns.js';
import type { Columns, FormatWriter, TextOut } from './format.js';
import { styleFor, type DisplayStyle } from './numbers.js';
import { neutralize } from './sanitize.js';
import { drawRecords, drawTable, fitWidths, tableWidth, wrapCell, CELL_PADDING, type Column } from './table.js';

/** Records drawn at once when a stream is printed as one table on a terminal. */
const TABLE_STREAM_CHUNK = 500;

export interface TableOut extends TextOut {
  readonly color: boolean;
  readonly columns?: number;
  readonly wide?: boolean;
}

/** At a terminal `wide` columns only with --wide; a pipe keeps every column, for cut and awk. */
function shownColumns(rows: unknown[], given: Columns | undefined, out: TableOut): Column[] {
  const all = flatColumns(columnsOf(rows, given), rows);
  return out.wide || !out.isTTY ? all : all.filter((c) => !c.wide);
}

export function tableWriter(given: Columns | undefined, out: TableOut): FormatWriter {
  let count = 0;
  let pending: unknown[] = [];
  let columns: Column[] | undefined;
  let widths: number[] | undefined;
  // A long stream is one table in chunks; the bottom border waits for the end.
  let bottom: string | undefined;
  const flushTable = async (ending: boolean) => {
    if (!pending.length) return;
    columns ??= shownColumns(pending, given, out);
    const first = count === pending.length;
    const whole = first && ending;
    const drawn = await table(out, pending, columns, first, widths, { top: first, stream: !whole });
    widths = drawn?.widths;
    bottom = whole ? undefined : drawn?.bottom;
    pending = [];
  };
  return {
    write: async (record) => {
      count++;
      // In a pipe each record is written at once: `| head -1` sees it (and the walk stops) without waiting for a chunk.
      if (!out.isTTY) {
        columns ??= shownColumns([record], given, out);
        await table(out, [record], columns, false);
        return;
      }
      pending.push(record);
      if (pending.length >= TABLE_STREAM_CHUNK) await flushTable(false);
    },
    flush: async () => {
      if (!pending.length) return;
      // The next record starts a new table, with its header.
      const before = count;
      count = pending.length;
      await flushTable(true);
      count = before;
      columns = undefined;
      widths = undefined;
      bottom = undefined;
    },
    end: async () => {
      await flushTable(true);
      if (bottom !== undefined) await out.write(`${bottom}\n`);
      else if (count === 0 && out.isTTY) await out.write('(no results)\n');
    },
    value: async (value) => {
      if (value !== null && typeof value === 'object') return record(out, value as Record<string, unknown>, given);
      return out.write(`${neutralize(String(value ?? ''))}\n`);
    },
  };
}

/** `part` lets a stream print one table in chunks, widths fixed by the first with room to spare. */
async function table(
  out: TableOut,
  rows: unknown[],
  columns: Column[],
  header: boolean,
  fixedWidths?: number[],
  part: { top: boolean; stream: boolean } = { top: true, stream: false },
): Promise<{ widths: number[]; bottom: string } | undefined> {
  const style = styleFor(out.isTTY);
  const cells = rows.flatMap((row) => spreadRows(row, columns, false).map((values) => columns.map((c, i) => displayText(values[i], c, row, style))));
  if (!out.isTTY) {
    await out.write(cells.map((r) => `${r.join('\t')}\n`).join(''));
    return undefined;
  }
  if (!rows.length && header) {
    await out.write('(no results)\n');
    return undefined;
  }
  const paint = await painter(out.color);
  // Header may be the service's field names: neutralised, then painted.
  const shown = columns.map((c) => ({ ...c, header: neutralize(c.header ?? c.key) }));
  const widths = fixedWidths ?? fitWidths(shown, cells, out.columns, part.stream);
  // Too wide even once everything gave way: a block per record.
  if (out.columns && shown.length > 2 && tableWidth(widths) > out.columns) {
    const { text, bottom } = await drawRecords(cells, shown, out.columns, { ...part, paint });
    await out.write(text);
    return { widths, bottom };
  }
  const head = header ? shown.map((c, i) => paint(wrapCell(c.header, widths[i]! - CELL_PADDING))) : undefined;
  const { text, bottom } = await drawTable(cells, shown, { head, widths, ...part });
  await out.write(text);
  return { widths, bottom };
}

async function record(out: TableOut, record: Record<string, unknown>, given?: Columns): Promise<void> {
  const columns: Column[] = given ? normalizeColumns(given).filter((c) => out.wide || !out.isTTY || !c.wide) : Object.keys(record).map((key) => ({ key }));
  const style = styleFor(out.isTTY);
  const pairs = columns.map((c) => ({ field: c.header ?? c.key, value: displayText(pick(record, c.key), c, record, style) }));
  await table(out, pairs, [{ key: 'field', header: 'Field' }, { key: 'value', header: 'Value', wrapLinks: true }], out.isTTY);
}

async function painter(color: boolean): Promise<(s: string) => string> {
  if (!color) return (s) => s;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return (s) => chalk.bold(s);
}

function displayText(value: unknown, column: Column, row: unknown, style: DisplayStyle): string {
  // A whole number is a count: grouped for people at a terminal.
  const count = typeof value === 'number' && Number.isSafeInteger(value) ? style.count(value) : undefined;
  const list = Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object') ? value.map(plainText).join(', ') : undefined;
  const text = column.format ? column.format(value, (row ?? {}) as Record<string, unknown>, style) : (count ?? list ?? plainText(value));
  return neutralize(text);
}
