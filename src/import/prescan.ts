// What a file's columns mean, settled before the first batch (CLI.md "What a
// file means"). A file with a status or consent column is read once more, so
// a value the import cannot read there stops it while nothing has been sent,
// and each status column's line says how many rows it keeps back.
import { hinted, UsageError } from '../core/errors.js';
import { unescapeCells } from '../output/sanitize.js';
import type { ImportInput } from './input.js';
import type { MappingPlan } from './mapping.js';
import { RowSource, type TextShape } from './source.js';
import { findStatusColumns, readableValues, readStatus, type StatusCode, type StatusColumn } from './status-columns.js';
import { CONSENT_VALUES, parseConsent } from '../validation/subscriber-fields.js';

const SHOWN_VALUES = 5;

interface Unreadable {
  values: string[];
  rows: number;
}

export interface StatusCount {
  column: StatusColumn;
  marked: Partial<Record<StatusCode, number>>;
  rows: number;
}

export interface Prescan {
  status: StatusCount[];
  /** Data rows read (blank lines among them). */
  rows: number;
}

/** The status columns found, those that keep rows back (none with --include-unsubscribed), and the lines to say. */
export async function readMeaning(
  input: ImportInput,
  shape: TextShape,
  plan: MappingPlan,
  o: { includeUnsubscribed?: boolean; dryRun: boolean },
): Promise<{ found: StatusColumn[]; statusColumns: StatusColumn[]; notices: string[] }> {
  const notices: string[] = [];
  const twice = duplicateHeaders(plan, input.name);
  if (twice) notices.push(twice);
  const found = findStatusColumns(plan);
  const statusColumns = o.includeUnsubscribed ? [] : found;
  if (statusColumns.length > 0 || plan.consentColumn >= 0) {
    const scan = await prescan(input, shape, plan, statusColumns);
    for (const count of scan.status) notices.push(statusNotice(count, scan.rows, o.dryRun));
  }
  if (o.includeUnsubscribed) {
    for (const c of found) notices.push(`${c.format} recognised: column "${c.header}" is not read (--include-unsubscribed): every row is sent whatever it says`);
  }
  return { found, statusColumns, notices };
}

async function prescan(input: ImportInput, shape: TextShape, plan: MappingPlan, columns: StatusColumn[]): Promise<Prescan> {
  const status = columns.map((column) => ({ column, marked: {} as Partial<Record<StatusCode, number>>, rows: 0, bad: { values: [], rows: 0 } as Unreadable }));
  const consent: Unreadable = { values: [], rows: 0 };
  const consentColumn = plan.consentColumn;
  const fromFailuresFile = plan.userWidth < plan.width;
  const { rows } = await RowSource.open(input, shape);
  let count = 0;
  try {
    for (;;) {
      const record = rows.read();
      if (record === null) {
        if (!(await rows.more())) break;
        continue;
      }
      count++;
      if (fromFailuresFile) unescapeCells(record);
      for (const s of status) {
        const cell = record[s.column.index];
        const code = readStatus(s.column, cell);
        if (code === null) note(s.bad, cell!);
        else if (code !== '') {
          s.marked[code] = (s.marked[code] ?? 0) + 1;
          s.rows++;
        }
      }
      if (consentColumn >= 0) {
        const cell = record[consentColumn];
        if (cell !== undefined && parseConsent(cell, true) === null) note(consent, cell);
      }
    }
  } finally {
    rows.close();
  }
  for (const s of status) {
    if (s.bad.rows === 0) continue;
    throw hinted(
      new UsageError(`${input.name}: column "${s.column.header}" (${s.column.format}) has values the import cannot read as a status: ${described(s.bad)}; nothing was sent`),
      `It reads ${readableValues(s.column)}. Fix those cells, send every row as it is with --include-unsubscribed, or set the column aside with --map "${s.column.header}=-".`,
    );
  }
  if (consent.rows > 0) {
    const header = plan.columns[consentColumn]!.header.trim();
    throw hinted(
      new UsageError(`${input.name}: column "${header}" has values that are not a consent: ${described(consent)}; nothing was sent`, 215),
      `ConsentToTrack is read from ${CONSENT_VALUES}. Fix those cells, or set the column aside with --map "${header}=-" and give --consent.`,
    );
  }
  return { status: status.map(({ column, marked, rows }) => ({ column, marked, rows })), rows: count };
}

function note(bad: Unreadable, cell: string): void {
  bad.rows++;
  const value = cell.trim();
  if (bad.values.length < SHOWN_VALUES && !bad.values.includes(value)) bad.values.push(value);
}

function described(bad: Unreadable): string {
  const values = bad.values.map((v) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)).join(', ');
  return `${values}${bad.values.length === SHOWN_VALUES ? ', …' : ''} (${bad.rows} ${bad.rows === 1 ? 'row' : 'rows'})`;
}

function statusNotice(count: StatusCount, total: number, dryRun: boolean): string {
  const { column, marked, rows } = count;
  const what = (Object.entries(marked) as [StatusCode, number][]).map(([code, n]) => `${n} ${code === 'no-permission' ? 'without marketing permission' : code}`).join(', ');
  if (rows === 0) return `${column.format} recognised: column "${column.header}" decides which rows are sent; it marks none of the ${total} rows`;
  const verb = dryRun ? 'would not be sent' : 'are not sent';
  return (
    `${column.format} recognised: column "${column.header}" keeps back ${rows} of ${total} ${total === 1 ? 'row' : 'rows'} (${what}): they ${verb} ` +
    '(counted as rejected, outcome skipped in --failures); --include-unsubscribed sends them'
  );
}

// ---- two columns under one header ----------------------------------------------------

/** Two columns sent under one header would merge into one key: refused; otherwise the others are named. */
export function duplicateHeaders(plan: MappingPlan, inputName: string): string | undefined {
  const groups = new Map<string, number[]>();
  for (const c of plan.columns) {
    if (c.source === 'failures file' || c.source === 'empty header') continue;
    const key = c.header.trim().toLowerCase();
    const group = groups.get(key);
    if (group) group.push(c.index);
    else groups.set(key, [c.index]);
  }
  const notes: string[] = [];
  for (const indices of groups.values()) {
    if (indices.length < 2) continue;
    const name = plan.columns[indices[0]!]!.header.trim();
    const numbers = indices.map((i) => i + 1);
    const list = `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
    const sent = indices.filter((i) => plan.columns[i]!.target !== 'ignore');
    if (sent.length > 1) {
      const error = new UsageError(`${inputName}: columns ${list} are all named "${name}", and each would be sent (their values would merge under one key); nothing was sent`);
      error.hint = `Leave them out with --map "${name}=-" (every column of that name) or --only-mapped, or rename one of them in the file.`;
      throw error;
    }
    notes.push(sent.length === 1 ? `columns ${list} are all named "${name}": only column ${sent[0]! + 1} is sent` : `columns ${list} are all named "${name}": none of them is sent`);
  }
  return notes.length ? `${inputName}: ${notes.join('; ')}` : undefined;
}
