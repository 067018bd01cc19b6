// Which columns a list of records shows, and a record's value at a column:
// shared by the table printer (render.ts, table.ts) and the CSV writer
// (csv.ts), so a column means the same in both.
import type { Column } from './table.js';

/** What a command's view says of columns (render.ts `View`). */
export interface ColumnsView {
  columns?: (string | Column)[];
  /** The columns are for tables: CSV carries every field of the records. */
  tableOnly?: boolean;
  /** CSV's columns, where they differ from the table's. */
  csv?: (string | Column)[];
}

export function normalizeColumns(columns: (string | Column)[]): Column[] {
  return columns.map((c) => (typeof c === 'string' ? { key: c } : c));
}

/** The fields of the first records, in the order they come. */
function inferKeys(rows: unknown[]): string[] {
  const keys: string[] = [];
  for (const row of rows.slice(0, 50)) {
    if (row && typeof row === 'object' && !Array.isArray(row)) {
      for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
    }
  }
  return keys.length ? keys : ['value'];
}

/** A table's columns: the view's, or the records' own fields. */
export function columnsOf(rows: unknown[], view?: ColumnsView): Column[] {
  return view?.columns ? normalizeColumns(view.columns) : inferKeys(rows).map((key) => ({ key }));
}

export function pick(record: unknown, path: string): unknown {
  if (record === null || typeof record !== 'object') return path === 'value' ? record : undefined;
  // A record reduced by --fields keeps dotted names as flat keys (`"Properties.Subject"`).
  if (path.includes('.') && Object.hasOwn(record, path)) return (record as Record<string, unknown>)[path];
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A value as text: strings as they are, objects and arrays as JSON. */
export function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
