// What the import round trip (import-roundtrip.ts) expects of a case, from
// the generator's intent (import-roundtrip-case.ts) rather than a second
// parser: each row's outcome (CLI.md "Import guarantees", "--failures"), the
// user's fixes, and what the sandbox holds after the import and after the
// fixed failures file, starting from the list as the sandbox seeded it.
//   - a row is valid when its address was not misspelt, its consent cell
//     stands for Yes/No/Unchanged (or is empty with --consent) and its date
//     is one; its Name and fields are its cells trimmed, First + Last joined;
//   - every generated row is as wide as the header (a ragged row is refused,
//     missing-fields or extra-fields: test/import covers it); a blank line is no row;
//   - addresses compare lower-cased: the first valid row of an address is
//     sent; a later row of it is a duplicate, valid or not (a duplicate never
//     overwrites the imported row); an unsubscribed address fails (206);
//   - a sent row replaces the Name ("" too, which the import warns of) and the fields it supplies (an
//     empty cell is "not supplied"), a Number field ignores a value that is
//     no number, 0000-00-00 clears a date, Unchanged keeps a stored consent
//     and is No for a new subscriber;
//   - the user fixes each rejected row (the address meant, consent given, the
//     date year first) and leaves duplicates and failures alone.
import { parse } from 'csv-parse/sync';
import { CONSENT_MEANS, cellsOf, csvLine, dateMeans, poolAddress, type Cells, type Rendered, type RoundTripCase, type RowPlan } from './import-roundtrip-case.js';

export interface Subscriber {
  name: string;
  consent: string;
  fields: Record<string, string>;
  state: string;
  /** The line of the row the values came from (0: the seed). */
  line?: number;
}

export type Outcome = 'imported' | 'failed' | 'rejected' | 'duplicate' | 'blank';

interface Entry {
  key: string;
  name: string;
  consent: 'Yes' | 'No' | 'Unchanged';
  company: string;
  age: string;
  birthday: ReturnType<typeof dateMeans>;
}

/** The --consent a case's import is run with: a file without a consent column needs one (after the check that it is refused without). */
export function consentFlagOf(c: RoundTripCase): 'yes' | 'no' | 'unchanged' | null {
  return c.run.consentFlag ?? (c.layout.consentHeader === null ? 'yes' : null);
}

const FLAG_MEANS = { yes: 'Yes', no: 'No', unchanged: 'Unchanged' } as const;

/** What a row sends, or why it is refused (with its address when that is valid: a refused row can still be a duplicate). */
function judge(c: RoundTripCase, row: RowPlan, cells: Cells): { entry: Entry } | { rejected: string; key?: string } {
  if (row.defect) return { rejected: row.defect === 'empty' ? 'no address' : 'invalid address' };
  const key = poolAddress(row.address, c.pool);
  const flag = consentFlagOf(c);
  const cell = c.layout.consentHeader === null ? '' : row.consent;
  const consent = CONSENT_MEANS[cell] === '' && flag ? FLAG_MEANS[flag] : CONSENT_MEANS[cell];
  if (!consent) return { rejected: 'consent', key };
  const birthday = dateMeans(row.date);
  if ('invalid' in birthday) return { rejected: `date ${birthday.invalid}`, key };
  const name = cells.name !== undefined ? cells.name.trim() : [cells.first!, cells.last!].map((p) => p.trim()).filter(Boolean).join(' ');
  return { entry: { key, name, consent, company: row.company.trim(), age: row.age.trim(), birthday } };
}

/** The user's fix of a refused row: the address they meant, consent given, the date written year first. */
function fixed(c: RoundTripCase, row: RowPlan): RowPlan {
  const means = CONSENT_MEANS[row.consent];
  const consentRefused = c.layout.consentHeader !== null && (means === undefined || (means === '' && !consentFlagOf(c)));
  const d = row.date;
  const date = d.spelling === 'empty' || d.spelling === 'clear' ? d : { ...d, spelling: 'iso' as const, day: d.spelling === 'impossible' ? 28 : d.day };
  return { ...row, defect: null, consent: consentRefused ? 'yes' : row.consent, date };
}

/** The sandbox's subscriber after one sent entry. */
function store(before: Subscriber | undefined, entry: Entry, line: number): Subscriber {
  const s: Subscriber = { name: entry.name, consent: before?.consent ?? 'No', fields: { ...before?.fields }, state: 'Active', line };
  if (entry.consent !== 'Unchanged') s.consent = entry.consent;
  if (entry.company !== '') s.fields.Company = entry.company;
  if (entry.age !== '' && Number.isFinite(Number(entry.age))) s.fields.Age = entry.age;
  if ('value' in entry.birthday) {
    if (entry.birthday.value === null) delete s.fields.Birthday;
    else s.fields.Birthday = entry.birthday.value;
  }
  return s;
}

export interface Expected {
  outcomes: { line: number; outcome: Outcome; why?: string; key?: string; of?: number }[];
  /** The fixed cells of each row the user fixes, by row index. */
  fixes: Map<number, Cells>;
  counts: { rows: number; imported: number; failed: number; rejected: number; duplicates: number };
  /** The addresses the import sends: its accepted rows'. */
  sent: Set<string>;
  afterImport: Map<string, Subscriber>;
  final: Map<string, Subscriber>;
}

/** The oracle of a case, from the list as the sandbox holds it before the import (lower-cased address → subscriber). */
export function oracle(c: RoundTripCase, rendered: Rendered, initial: Map<string, Subscriber>): Expected {
  const model = new Map<string, Subscriber>([...initial].map(([k, s]) => [k, { ...s, fields: { ...s.fields }, line: 0 }]));
  const write = (entry: Entry, line: number) => {
    const before = model.get(entry.key);
    if (before?.state === 'Unsubscribed') return false; // 206: not re-added without --resubscribe
    model.set(entry.key, store(before, entry, line));
    return true;
  };
  const outcomes: Expected['outcomes'] = [];
  const firstLine = new Map<string, number>();
  for (const row of rendered.rows) {
    if (row.blank) {
      outcomes.push({ line: row.line, outcome: 'blank' });
      continue;
    }
    const verdict = judge(c, c.rows[row.index]!, row.byKey);
    const key = 'entry' in verdict ? verdict.entry.key : verdict.key;
    if (key !== undefined && firstLine.has(key)) outcomes.push({ line: row.line, outcome: 'duplicate', key, of: firstLine.get(key) });
    else if (!('entry' in verdict)) outcomes.push({ line: row.line, outcome: 'rejected', why: verdict.rejected });
    else {
      firstLine.set(verdict.entry.key, row.line);
      outcomes.push({ line: row.line, outcome: write(verdict.entry, row.line) ? 'imported' : 'failed', key });
    }
  }
  const afterImport = new Map([...model].map(([k, s]) => [k, { ...s, fields: { ...s.fields } }]));

  // Rejected rows come back fixed, in line order: the first of an address not already sent is sent, later ones are duplicates.
  const fixes = new Map<number, Cells>();
  const fixedFirst = new Set<string>();
  for (const row of rendered.rows) {
    if (row.blank) continue;
    const plan = fixed(c, c.rows[row.index]!);
    const cells = cellsOf(c, plan);
    const verdict = judge(c, plan, cells);
    if (!('entry' in verdict) || (firstLine.get(verdict.entry.key) ?? Infinity) < row.line) continue;
    fixes.set(row.index, cells);
    if (outcomes[row.index]!.outcome === 'rejected' && !fixedFirst.has(verdict.entry.key)) {
      fixedFirst.add(verdict.entry.key);
      write(verdict.entry, row.line);
    }
  }
  const count = (what: Outcome) => outcomes.filter((o) => o.outcome === what).length;
  return {
    outcomes,
    fixes,
    afterImport,
    final: model,
    sent: new Set(outcomes.filter((o) => o.outcome === 'imported' || o.outcome === 'failed').map((o) => o.key!)),
    counts: { rows: outcomes.length - count('blank'), imported: count('imported'), failed: count('failed'), rejected: count('rejected'), duplicates: count('duplicate') },
  };
}

/** The exit code of a completed import (CLI.md "Exit codes"): duplicates are not failures. */
export function expectedExit(counts: Expected['counts']): number {
  if (counts.failed + counts.rejected === 0) return 0;
  if (counts.imported > 0) return 3;
  return counts.failed > 0 ? 1 : 2;
}

/**
 * The failures file's cells are the input's, made safe for spreadsheets
 * (CLI.md "untrusted text"): a cell that starts like a formula (=, +, -, @,
 * a tab or a return, or their full-width forms; apostrophes before one of
 * them too) and is not a plain number gets one apostrophe in front.
 */
export function spreadsheetForm(cell: string): string {
  return /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell) ? `'${cell}` : cell;
}

export interface FailuresFile {
  bom: boolean;
  header: string[];
  rows: { cells: string[]; line: number; outcome: string; record: string[] }[];
}

/** Reads a failures file: its rows' input cells, Line and Outcome. Tolerates anything: a broken file is reported by the checks. */
export function readFailuresFile(text: string, width: number): FailuresFile {
  const bom = text.startsWith('\uFEFF');
  const records = parse(bom ? text.slice(1) : text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
  const [header = [], ...rest] = records;
  return { bom, header, rows: rest.map((r) => ({ cells: r.slice(0, width), line: Number(r[width]), outcome: r[width + 1]!, record: r })) };
}

/** The failures file with the user's fixes of its rejected rows, as a user's script would write it back (CRLF, BOM kept). */
export function fixFailuresFile(rendered: Rendered, expected: Expected, failures: FailuresFile): string {
  const byLine = new Map(rendered.rows.map((r) => [r.line, r]));
  const lines = [csvLine(failures.header)];
  for (const f of failures.rows) {
    const row = byLine.get(f.line);
    const fix = row && f.outcome === 'rejected' ? expected.fixes.get(row.index) : undefined;
    lines.push(csvLine(fix ? [...rendered.columns.map((k) => fix[k]!), ...f.record.slice(rendered.columns.length)] : f.record));
  }
  return (failures.bom ? '\uFEFF' : '') + lines.join('\r\n') + '\r\n';
}
