// What the renderer's parts share (src/output/render.ts): the view a command
// gives its data, a report written as its parts come, and how a format writes
// records. Types and two tests of shape only, so every part imports them
// without importing another part.
import type { Column } from './table.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

/** How data is shown to people: the command says which columns matter; the renderer decides where they apply. */
export interface View {
  /** Table columns; CSV's too, unless `tableOnly`. */
  columns?: (string | Column)[];
  /** The columns are for tables: CSV carries every field of the records, as the service names them. */
  tableOnly?: boolean;
  /** CSV's columns, where they differ from the table's (a segment's rule groups: one column of JSON, not one per group). */
  csv?: (string | Column)[];
  /** The data has no table (a raw answer of `email api`): where the format is table it prints as JSON. */
  json?: boolean;
  /** JSON on one line (the sandbox's ready line, which a script reads as soon as it comes: CLI.md `sandbox`). */
  compact?: boolean;
  /** What a table shows is text the command made for people (neutralised, perhaps painted): written as it is. */
  text?: boolean;
  /** The data are checks ({check, status, detail, hint}: `email doctor`): people read one line per check, its status coloured (src/output/checks.ts). */
  checks?: boolean;
  /** The data is text with no other form (a completion script, `api -i`): written as it is in every format; at a terminal its controls are shown as escapes. */
  raw?: boolean;
  /** Records without end, until the user stops the command (webhooks listen): written as they come, never held for a pager (src/output/pager.ts). */
  endless?: boolean;
}

/**
 * A report written as its parts come (an import's --dry-run: the mapping,
 * then each problem as it is found, then the counts), so a large one never
 * sits in memory. JSON: one object, a streamed part as an array written as it
 * comes, a part without a key spreading its fields; NDJSON and CSV: the
 * streamed records, then the other parts as one record; a table: each part
 * under its title (on stdout, with its table), then the footer (src/output/report.ts).
 */
export interface Report {
  readonly parts: readonly ReportPart[];
  /** For people, after the last part ("Dry run: nothing was sent."). */
  readonly footer?: string;
}

export interface ReportPart {
  /** The key in JSON; none: the part's fields stand among the report's own. */
  key?: string;
  /** The value, or a promise of it, or records that come one by one. */
  value: unknown;
  /** For people: what a table shows instead of the value (undefined: the value), and under which title. */
  display?: unknown;
  /** Said before the part, for people; a function when it depends on the value (read once the value is in). */
  title?: string | (() => string | undefined);
  view?: View;
  /** For people, when a streamed part had no record. */
  empty?: string;
  /** For people, a line on stdout before the part (a section of the sandbox's ready text), written at once; `title` waits for a streamed part's first record. */
  heading?: string;
  /** Not for people: the table leaves it out. */
  machineOnly?: boolean;
  /** Only for people: JSON, NDJSON and CSV leave it out (an abbreviated first request; the full one is in the report). */
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
  /** Shows now what was written so far (a delivery's events as they arrive): a terminal's table is drawn whole, the next record starts a new one. */
  flush?(): Promise<void>;
  /** Finishes the stream (closes a JSON array, flushes a table). */
  end(): Promise<void>;
}

/** A format's way of writing: a list record by record, one value, or a report. */
export interface FormatWriter extends RecordStream {
  value(value: unknown): Promise<void>;
  report(report: Report): Promise<void>;
}

/** Where a format writes its text (src/output/stdout-writer.ts), and whether a terminal reads it. */
export interface TextOut {
  write(text: string): Promise<void>;
  readonly isTTY: boolean;
}
