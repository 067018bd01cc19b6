// What a command hands back (src/commands/define.ts `run`): its data, which
// every machine format reads, and for people the default table of it or the
// command's own view. The only module of output/ a command imports, types only.
import type { Column } from './table.js';

export type { Column } from './table.js';
export type { DisplayStyle } from './numbers.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

export interface Result {
  /**
   * What JSON, NDJSON, CSV, --jq, --fields and --limit read: records (an
   * array, or an async iterable that yields them as they come), one record,
   * or one value; an object may hold one async iterable, written as it comes
   * (a dry run's problems). None: the command has only its people view, in every format.
   */
  data?: unknown;
  /** For people: the table of `data` under these columns (none: the records' own fields). */
  columns?: (string | Column)[];
  /** For people: the command's own view of `data` (already cut by --limit), instead of the table. */
  people?: (data: unknown, out: PeopleOut) => Promise<void> | void;
  /** One line for people on stderr once the data is out (a notice in machine mode); a function when only the end knows it. */
  message?: string | (() => string | undefined);
  /** Ends the command once the data is out, with the error's exit code; a function when only the end knows it. */
  error?: Error | (() => Error | undefined);
}

/** What a people view writes with: stdout for what people read, stderr for notes. */
export interface PeopleOut {
  /** Records, or one record (a Field/Value table), as a table under these columns. */
  table(data: unknown, columns?: (string | Column)[]): Promise<void>;
  /** A line of the command's text; controls in it are shown, not obeyed. `lead`: a word before it, coloured where colour is on. */
  line(text: string, lead?: { text: string; color?: 'green' | 'yellow' | 'red' | 'dim' }): Promise<void>;
  /** Text with no other form (a completion script, a raw answer with its head): as it is, its controls shown at a terminal. */
  text(text: string): Promise<void>;
  /** A value with no table (a raw answer): as -o json prints it. */
  json(value: unknown): Promise<void>;
  /** A line on stderr, not with --quiet. */
  note(text: string): void;
}
