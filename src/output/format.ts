// What the renderer's parts share: types and two shape tests only, so every
// part imports them without importing another part.
import type { Column } from './table.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

/** The command says which columns matter; the renderer decides where they apply. */
export interface View {
  columns?: (string | Column)[];
  /** CSV carries every field of the records, as the service names them. */
  tableOnly?: boolean;
  /** CSV's columns where they differ (a segment's rule groups: one column of JSON). */
  csv?: (string | Column)[];
  /** No table (a raw `email api` answer): prints as JSON where the format is table. */
  json?: boolean;
  /** JSON on one line: the sandbox's ready line, which a script reads as soon as it comes. */
  compact?: boolean;
  /** Text the command made for people (already neutralised): written as it is. */
  text?: boolean;
  /** The data are doctor's checks: people read one line per check, its status coloured. */
  checks?: boolean;
  /** Text with no other form: written as it is in every format. */
  raw?: boolean;
  /** Records without end: written as they come, never held for a pager. */
  endless?: boolean;
}

/** A report written as its parts come (an import's --dry-run), so a large one never sits in memory. */
export interface Report {
  readonly parts: readonly ReportPart[];
  readonly footer?: string;
}

export interface ReportPart {
  /** The key in JSON; none: the part's fields stand among the report's own. */
  key?: string;
  value: unknown;
  /** What a table shows instead of the value, and under which title. */
  display?: unknown;
  /** A function when it depends on the value (read once it is in). */
  title?: string | (() => string | undefined);
  view?: View;
  empty?: string;
  /** A line on stdout before the part, written at once; `title` waits for a streamed part's first record. */
  heading?: string;
  machineOnly?: boolean;
  /** Only for people: machine formats leave it out (the full request is in the report). */
  peopleOnly?: boolean;
}

export function isReport(value: unknown): value is Report {
  return value !== null && typeof value === 'object' && Array.isArray((value as Report).parts);
}

export function isRecords(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}

export interface RecordStream {
  write(record: unknown): Promise<void>;
  /** Shows what was written so far: a terminal's table is drawn whole, the next record starts a new one. */
  flush?(): Promise<void>;
  end(): Promise<void>;
}

export interface FormatWriter extends RecordStream {
  value(value: unknown): Promise<void>;
  report(report: Report): Promise<void>;
}

export interface TextOut {
  write(text: string): Promise<void>;
  readonly isTTY: boolean;
}
