// Shared by the table printer and the CSV writer, so a column means the same in both.
import type { Column } from './table.js';

export function normalizeColumns(columns: (string | Column)[]): Column[] {
  return columns.map((c) => (typeof c === 'string' ? { key: c } : c));
}

function inferKeys(rows: unknown[]): string[] {
  const keys: string[] = [];
  for (const row of rows.slice(0, 50)) {
    if (row && typeof row === 'object' && !Array.isArray(row)) {
      for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
    }
  }
  return keys.length ? keys : ['value'];
}

export function columnsOf(rows: unknown[], columns?: (string | Column)[]): Column[] {
  return columns ? normalizeColumns(columns) : inferKeys(rows).map((key) => ({ key }));
}

export function pick(record: unknown, path: string): unknown {
  if (record === null || typeof record !== 'object') return path === 'value' ? record : undefined;
  // --fields keeps dotted names as flat keys (`"Properties.Subject"`).
  if (path.includes('.') && Object.hasOwn(record, path)) return (record as Record<string, unknown>)[path];
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Objects split into their fields and the first array of records into its elements' fields, which spread over rows. */
export function flatColumns(columns: Column[], rows: unknown[], split = { array: false }): Column[] {
  return columns.flatMap((c) => {
    if (c.format) return [c];
    const sample = rows.map((r) => pick(r, c.key)).find((v) => v !== undefined && v !== null);
    if (isObject(sample)) return flatColumns(inferKeys([sample]).map((k) => ({ key: `${c.key}.${k}` })), rows, split);
    const elements = Array.isArray(sample) ? sample.filter(isObject) : [];
    if (split.array || !elements.length || elements.length !== (sample as unknown[]).length) return [c];
    split.array = true;
    return inferKeys(elements).map((k) => ({ key: `${c.key}.${k}` }));
  });
}

interface RowValues {
  root?: string;
  rows: number;
  at(i: number): unknown;
}

function rowValues(record: unknown, key: string, scalars: boolean): RowValues {
  const whole = (value: unknown): RowValues => ({ rows: 1, at: () => value });
  const leaf = (value: unknown, root: string): RowValues => (Array.isArray(value) && (scalars || value.some(isObject)) ? { root, rows: value.length, at: (i) => value[i] } : whole(value));
  // A flat --fields key (`Actions.Event`) holds what it collected, from the array its first name names.
  if (isObject(record) && key.includes('.') && Object.hasOwn(record, key)) return leaf(record[key], key.split('.')[0]!);
  const parts = key.split('.');
  let value: unknown = record;
  for (let k = 0; k < parts.length; k++) {
    if (Array.isArray(value) && value.some(isObject)) {
      const elements = value;
      const rest = parts.slice(k).join('.');
      return { root: parts.slice(0, k).join('.'), rows: elements.length, at: (i) => pick(elements[i], rest) };
    }
    if (!isObject(value)) return whole(undefined);
    value = value[parts[k]!];
  }
  return leaf(value, key);
}

/** A record's values as rows: the first array met spreads over rows (others repeated); `scalars`: plain-value arrays too (CSV). */
export function spreadRows(record: unknown, columns: Column[], scalars: boolean): unknown[][] {
  const values = columns.map((c) => (c.format ? { rows: 1, at: () => pick(record, c.key) } : rowValues(record, c.key, scalars)) as RowValues);
  const root = values.find((v) => v.root !== undefined)?.root;
  const spread = values.map((v) => (v.root === undefined || v.root === root ? v : { rows: 1, at: () => Array.from({ length: v.rows }, (_, i) => v.at(i)) }));
  const count = Math.max(1, ...spread.map((v) => v.rows));
  return Array.from({ length: count }, (_, i) => spread.map((v) => v.at(i)));
}

export function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
