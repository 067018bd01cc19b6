// What the renderer's writers share (src/output/render.ts): how a format
// writes records, and two tests of shape. Types only but for those, so every
// writer imports them without importing another writer.
import type { Column } from './table.js';

export type { OutputFormat } from './result.js';
export type Columns = (string | Column)[];

/** Records that come one by one (a page walk, a listener's events). */
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

/** A format's way of writing: a list record by record, or one value. */
export interface FormatWriter extends RecordStream {
  value(value: unknown): Promise<void>;
}

/** Where a format writes its text (src/output/stdout-writer.ts), and whether a terminal reads it. */
export interface TextOut {
  write(text: string): Promise<void>;
  readonly isTTY: boolean;
}
