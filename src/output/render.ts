// The one renderer (ENGINEERING.md habit 1): a command's Result in, table,
// JSON, NDJSON or CSV out. Machine formats, --jq, --fields and --limit read
// the data only; people get the command's own view, else a table of the data.
// At a terminal, controls from outside show as escapes (CLI.md "untrusted text").
import { StdoutWriter } from './stdout-writer.js';
import { csvWriter } from './csv.js';
import { isRecords, type Columns, type FormatWriter, type OutputFormat, type RecordStream } from './format.js';
import { jqStream } from './jq-stream.js';
import { jsonWriter, ndjsonWriter } from './json.js';
import { flatObject, gathered, isStreamedObject, jsonObject } from './report.js';
import { normalizeColumns } from './columns.js';
import { writeEndless } from './endless.js';
import { neutralize, neutralizeLines } from './sanitize.js';
import { project, shapeData, type Shape } from './shape.js';
import { tableWriter } from './table-writer.js';
import type { PeopleOut, Result } from './result.js';
import type { Writable } from './writable.js';

export interface Output {
  /** Prints what a command returned: every per-format decision is made here. */
  render(result: Result): Promise<void>;
  /** Prints a list (array), one record (object) or a scalar. */
  print(data: unknown, columns?: Columns): Promise<void>;
  /** Prints records one by one, in order, without holding them all. */
  stream(columns?: Columns): RecordStream;
  /** The command serves until stopped: what it prints is never paged, records are drawn as they come, a JSON value is one line. */
  serving(): void;
}

export interface OutputOptions {
  format: OutputFormat;
  stdout: Writable;
  isTTY: boolean;
  color: boolean;
  columns?: number;
  /** --fields, --jq, --limit (src/output/shape.ts), applied to everything printed. */
  shape?: Shape;
  /** The command's signal: a --jq run stops with it (src/output/jq.ts). */
  signal?: AbortSignal;
  /** A line for people on stderr (src/context.ts gives the logger's notices). */
  note?: (line: string) => void;
}

export function createOutput(options: OutputOptions): Output {
  return new Renderer(options);
}

class Renderer implements Output {
  private readonly format: OutputFormat;
  private readonly out: StdoutWriter;
  private served = false;
  constructor(private readonly o: OutputOptions) {
    // --jq reads what -o json prints, and prints jq's results instead.
    this.format = o.shape?.jq ? 'json' : o.format;
    this.out = new StdoutWriter(o.stdout);
  }

  serving(): void {
    this.served = true;
    this.o.stdout.unpaged?.();
    // The command serves others while this prints: a pipe nobody reads must not block the process.
    this.o.stdout.writeAsynchronously?.();
  }

  async render({ data, columns, people }: Result): Promise<void> {
    const { fields, jq, limit } = this.o.shape ?? {};
    // No data: the people view is all there is, in every format (a completion script).
    if (data === undefined) return people?.(undefined, this.people);
    // --fields names the data's fields: a table of them, not the command's view.
    if (this.format === 'table' && people && !fields) return people(limit === undefined ? data : limited(data, limit), this.people);
    if (isStreamedObject(data)) {
      if (fields || jq || limit !== undefined) return this.print(await gathered(data));
      const text = { write: this.write, isTTY: this.o.isTTY };
      return this.format === 'ndjson' || this.format === 'csv' ? flatObject(data, () => this.writer(undefined)) : jsonObject(data, text);
    }
    if (!isRecords(data)) return this.print(data, columns);
    // Records that come one by one (a page walk): written as they come, never held.
    return this.served ? writeEndless(data, this.stream(columns)) : pour(data, this.stream(columns));
  }

  async print(data: unknown, columns?: Columns, shape: Shape | undefined = this.o.shape, format = this.format): Promise<void> {
    if (shape) {
      data = shapeData(data, shape);
      columns = shapedColumns(columns, shape);
    }
    if (shape?.jq) return shape.jq.run(data, this.jqWrite, this.o.signal);
    const writer = this.writer(columns, format, Array.isArray(data) ? data : undefined);
    if (!Array.isArray(data)) return writer.value(data);
    const records = data;
    await this.out.holding(async () => {
      for (const record of records) await writer.write(record);
      await writer.end();
    });
  }

  stream(columns?: Columns, format = this.format): RecordStream {
    const shape = this.o.shape;
    if (!shape) return this.writer(columns, format);
    const { limit, fields, jq } = shape;
    const inner = jq ? jqStream(jq, this.jqWrite, this.o.signal) : this.writer(shapedColumns(columns, shape), format);
    let count = 0;
    return {
      write: async (record) => {
        // Past --limit, records are dropped: the walk that feeds them stops asking for pages (core/paginate.ts).
        if (limit !== undefined && count >= limit) return;
        count++;
        await inner.write(fields ? project(record, fields) : record);
      },
      flush: () => inner.flush?.() ?? Promise.resolve(),
      end: () => inner.end(),
    };
  }

  /** jq's output as it comes: its raw strings are the service's text, so on a terminal their controls are shown, not obeyed. */
  private readonly jqWrite = (text: string): Promise<void> => this.write(this.o.isTTY ? neutralizeLines(text) : text);

  /**
   * The one place that decides per format how records and values are written:
   * JSON the data unchanged, NDJSON one value a line, CSV a header and rows
   * of the data's fields, a table for people under the command's columns.
   */
  private writer(columns: Columns | undefined, format = this.format, list?: unknown[]): FormatWriter {
    const text = { write: this.write, isTTY: this.o.isTTY };
    switch (format) {
      case 'json':
        return jsonWriter(text, this.served);
      case 'ndjson':
        return ndjsonWriter(text);
      case 'csv':
        // The data's own fields (a list's, as its first records have them), or those --fields named: a command's columns are for people.
        return csvWriter(this.o.shape?.fields?.map((key) => ({ key })), this.o.isTTY, this.o.shape?.bom ? this.bomWrite : this.write, list);
      case 'table':
        return tableWriter(columns, { ...text, color: this.o.color, columns: this.o.columns, wide: this.o.shape?.wide });
    }
  }

  /** What a command's people view writes with (src/output/result.ts PeopleOut); its data is already cut by --limit. */
  private readonly people: PeopleOut = {
    table: async (data, columns) => {
      return isRecords(data) ? pour(data, this.writer(columns, 'table')) : this.print(data, columns, {});
    },
    line: async (text, lead) => this.write(`${lead ? await paint(lead, this.o.color) : ''}${neutralize(text)}\n`),
    text: (text) => this.write(this.o.isTTY ? neutralizeLines(text) : text),
    json: async (value) => {
      return isRecords(value) ? pour(value, this.stream(undefined, 'json')) : this.print(value, undefined, {}, 'json');
    },
    note: (text) => this.o.note?.(text),
  };

  private bomWritten = false;

  /** --bom: the first CSV text starts with a UTF-8 byte-order mark, once. */
  private readonly bomWrite = (text: string): Promise<void> => {
    const first = !this.bomWritten;
    this.bomWritten = true;
    return this.write(first ? `\uFEFF${text}` : text);
  };

  /** Every text a format makes goes to stdout here (src/output/stdout-writer.ts). */
  private readonly write = (text: string): Promise<void> => this.out.write(text);
}

async function pour(records: AsyncIterable<unknown>, stream: RecordStream): Promise<void> {
  for await (const record of records) await stream.write(record);
  await stream.end();
}

/** The first `limit` records for a people view; a stream's rest is read and dropped, so its walk ends as it would. */
function limited(data: unknown, limit: number): unknown {
  if (!isRecords(data)) return shapeData(data, { limit });
  return (async function* () {
    let count = 0;
    for await (const record of data) if (count++ < limit) yield record;
  })();
}

/** A lead word coloured by its status (doctor's `ok`, `fail`). */
async function paint(lead: { text: string; color?: 'green' | 'yellow' | 'red' | 'dim' }, color: boolean): Promise<string> {
  if (!color || !lead.color) return lead.text;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 })[lead.color](lead.text);
}

/** With --fields, the columns are the fields, in their order; a command's column for the same field keeps its formatting. */
function shapedColumns(columns: Columns | undefined, shape: Shape): Columns | undefined {
  if (!shape.fields) return columns;
  const own = columns ? normalizeColumns(columns).filter((c) => !c.derived) : [];
  return shape.fields.map((field) => {
    const column = own.find((c) => c.key.toLowerCase() === field.toLowerCase());
    return column ? { ...column, key: field, header: field } : { key: field };
  });
}
