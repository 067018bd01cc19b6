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

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The columns with an object, or an array of records, split into their
 * fields (`Query.From`; `Actions.Event`, `Actions.Date`, …), as the first
 * records that have one show them. A column the command formats keeps its
 * value; an array nested in an array's elements stays one cell of JSON.
 */
export function flatColumns(columns: Column[], rows: unknown[]): Column[] {
  return columns.flatMap((c) => {
    if (c.format) return [c];
    const sample = rows.map((r) => pick(r, c.key)).find((v) => v !== undefined && v !== null);
    const elements = Array.isArray(sample) ? sample.filter(isObject) : [sample];
    if (!elements.length || !elements.every(isObject)) return [c];
    return flatColumns(inferKeys(elements).map((k) => ({ key: `${c.key}.${k}` })), rows);
  });
}

/** The value at `key` in row `i` of a record spread over rows, and how many rows its arrays ask for. */
function rowValues(record: unknown, key: string, scalars: boolean): { rows: number; at(i: number): unknown } {
  const leaf = (value: unknown) => (Array.isArray(value) && (scalars || value.some(isObject)) ? { rows: value.length, at: (i: number) => value[i] } : { rows: 1, at: () => value });
  if (isObject(record) && key.includes('.') && Object.hasOwn(record, key)) return leaf(record[key]);
  const parts = key.split('.');
  let value: unknown = record;
  for (let k = 0; k < parts.length; k++) {
    if (Array.isArray(value) && value.some(isObject)) {
      const elements = value;
      const rest = parts.slice(k).join('.');
      return { rows: elements.length, at: (i) => pick(elements[i], rest) };
    }
    if (!isObject(value)) return { rows: 1, at: () => undefined };
    value = value[parts[k]!];
  }
  return leaf(value);
}

/**
 * A record's values under `columns`, as rows: an array of records spreads
 * over rows (row i holds element i of each array, the record's other fields
 * repeated on every row); `scalars`: an array of plain values too (CSV; a
 * table joins them in one cell). A record without arrays is one row.
 */
export function spreadRows(record: unknown, columns: Column[], scalars: boolean): unknown[][] {
  const values = columns.map((c) => (c.format ? { rows: 1, at: () => pick(record, c.key) } : rowValues(record, c.key, scalars)));
  const count = Math.max(1, ...values.map((v) => v.rows));
  return Array.from({ length: count }, (_, i) => values.map((v) => v.at(i)));
}

/** A value as text: strings as they are, objects and arrays as JSON. */
export function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
