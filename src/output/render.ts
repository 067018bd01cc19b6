// The one renderer: commands hand it data and it prints table, JSON, NDJSON or
// CSV. JSON is the service's data unchanged; at a terminal every format shows
// outside controls as visible escapes (JSON as `\uXXXX`, so it stays valid).
// Each format writes in its own file, all through stdout-writer.ts.
import { StdoutWriter } from './stdout-writer.js';
import { reportValue } from './report-value.js';
import { csvWriter } from './csv.js';
import { isRecords, isReport, type FormatWriter, type OutputFormat, type RecordStream, type Report, type View } from './format.js';
import { jqStream } from './jq-stream.js';
import { jsonWriter, ndjsonWriter } from './json.js';
import { flatReport, jsonReport, peopleReport, type PeopleOut } from './report.js';
import { checkLines } from './checks.js';
import { normalizeColumns } from './columns.js';
import { writeEndless } from './endless.js';
import { neutralize, neutralizeLines } from './sanitize.js';
import { project, shapeData, type Shape } from './shape.js';
import { tableWriter } from './table-writer.js';
import type { Writable } from './writable.js';

export { isReport, type OutputFormat, type RecordStream, type Report, type ReportPart, type View } from './format.js';
export type { Column } from './table.js';
export { PLAIN_STYLE, type DisplayStyle } from './numbers.js';

export interface Rendered {
  /** Records (an array or async iterable), one record, or one value: what -o json prints, unchanged. */
  data?: unknown;
  view?: View;
  /** The data reshaped for people (or a function of it after --limit); ignored with --fields. */
  display?: unknown;
  action?: boolean;
  /** Lines for people reading a table, on stderr after the data; scripts have the data. */
  notes?: string[];
}

/** What a command may use of the renderer. The format is not part of it, so no command branches on it. */
export interface Output {
  /** --limit: a paged walk reads no page past it. */
  readonly limit?: number;
  readonly fields?: readonly string[];
  render(result: Rendered): Promise<void>;
  print(data: unknown, view?: View): Promise<void>;
  stream(view?: View): RecordStream;
  line(text: string): Promise<void>;
  /** What follows goes to a terminal as it comes, never held for a pager: a command that runs until stopped. */
  unpaged(): void;
}

export interface OutputOptions {
  format: OutputFormat;
  stdout: Writable;
  isTTY: boolean;
  color: boolean;
  columns?: number;
  shape?: Shape;
  signal?: AbortSignal;
  note?: (line: string) => void;
}

export function createOutput(options: OutputOptions): Output {
  return new Renderer(options);
}

class Renderer implements Output {
  private readonly format: OutputFormat;
  readonly limit?: number;
  readonly fields?: readonly string[];
  private readonly out: StdoutWriter;
  constructor(private readonly o: OutputOptions) {
    // --jq reads what -o json prints, and prints jq's results instead.
    this.format = o.shape?.jq ? 'json' : o.format;
    this.limit = o.shape?.limit;
    this.fields = o.shape?.fields;
    this.out = new StdoutWriter(o.stdout);
  }

  unpaged(): void {
    this.o.stdout.unpaged?.();
  }

  async line(text: string): Promise<void> {
    // The JSON formats print values, never lines.
    await this.write(`${this.o.isTTY || this.format === 'table' ? neutralize(text) : text}\n`);
  }

  async render(result: Rendered): Promise<void> {
    const { data, view } = result;
    if (data === undefined) return;
    // At a terminal its controls are shown, not obeyed.
    if (view?.raw && typeof data === 'string') return this.write(this.o.isTTY ? neutralizeLines(data) : data);
    if (view?.raw && isRecords(data)) {
      for await (const text of data) await this.write(this.o.isTTY ? neutralizeLines(String(text)) : String(text));
      return;
    }
    // --jq and --fields work on the value --json prints: a report's is gathered first.
    const { fields, jq, limit } = this.o.shape ?? {};
    if (isReport(data)) return fields || jq || limit !== undefined ? this.print(await reportValue(data)) : this.writer(undefined).report(data);
    const machine = this.format === 'json' || this.format === 'ndjson';
    // An action's answer is for scripts; for people the command's message says what was done.
    if (result.action && !machine) return;
    // --fields names the service's fields, so then the data itself, not the reshaped lines.
    const peopleOf = typeof result.display === 'function' ? (result.display as (data: unknown) => unknown) : undefined;
    const display = view?.checks && Array.isArray(data) ? await checkLines(data, this.o.color) : result.display;
    const shown = this.format === 'table' && display !== undefined && !this.fields ? display : data;
    // --limit counted the records, so not again the lines.
    if (peopleOf && shown === display) return this.print(peopleOf(limit !== undefined ? shapeData(data, { limit }) : data), view, { ...this.o.shape, limit: undefined });
    if (isReport(shown)) return this.writer(undefined).report(shown);
    if (isRecords(shown)) {
      const stream = this.stream(view);
      if (view?.endless) return writeEndless(shown, stream);
      for await (const record of shown) await stream.write(record);
      await stream.end();
      return;
    }
    await this.print(shown, view);
    if (this.format === 'table' && result.notes) for (const line of result.notes) this.o.note?.(line);
  }

  async print(data: unknown, view?: View, shape: Shape | undefined = this.o.shape): Promise<void> {
    if (shape) {
      data = shapeData(data, shape);
      view = shapedView(view, shape);
    }
    if (shape?.jq) return shape.jq.run(data, this.jqWrite, this.o.signal);
    const writer = this.writer(view);
    if (!Array.isArray(data)) return writer.value(data);
    const records = data;
    await this.out.holding(async () => {
      for (const record of records) await writer.write(record);
      await writer.end();
    });
  }

  stream(view?: View): RecordStream {
    if (view?.endless) {
      this.unpaged();
    // A listener serves others while this prints: a pipe nobody reads must not block the process.
      this.o.stdout.writeAsynchronously?.();
    }
    const shape = this.o.shape;
    if (!shape) return this.writer(view);
    const { limit, fields, jq } = shape;
    const inner = jq ? jqStream(jq, this.jqWrite, this.o.signal) : this.writer(shapedView(view, shape));
    let count = 0;
    return {
      write: async (record) => {
        // The walk that feeds them stops asking for pages.
        if (limit !== undefined && count >= limit) return;
        count++;
        await inner.write(fields ? project(record, fields) : record);
      },
      flush: () => inner.flush?.() ?? Promise.resolve(),
      end: () => inner.end(),
    };
  }

  /** jq's raw strings are the service's text: at a terminal their controls are shown, not obeyed. */
  private readonly jqWrite = (text: string): Promise<void> => this.write(this.o.isTTY ? neutralizeLines(text) : text);

  /** The one place that decides per format how a list's records, or one value, are written. */
  private writer(view: View | undefined): FormatWriter {
    const format = view?.json && this.format === 'table' ? 'json' : this.format;
    const text = { write: this.write, isTTY: this.o.isTTY };
    const flat = (report: Report) => flatReport(report, (v) => this.writer(v));
    switch (format) {
      case 'json':
        return { ...jsonWriter(view, text), report: (report) => jsonReport(report, text) };
      case 'ndjson':
        return { ...ndjsonWriter(text), report: flat };
      case 'csv':
        return { ...csvWriter(view, this.o.isTTY, this.o.shape?.bom ? this.bomWrite : this.write), report: flat };
      case 'table':
        return tableWriter(view, { ...text, color: this.o.color, columns: this.o.columns, wide: this.o.shape?.wide }, (report) => peopleReport(report, this.people));
    }
  }

  private readonly people: PeopleOut = {
    write: (text: string) => this.write(text),
    line: (text: string) => this.line(text),
    print: (data: unknown, view?: View) => this.print(data, view),
    writer: (view: View | undefined) => this.writer(view),
    note: (line: string) => this.o.note?.(line),
  };

  private bomWritten = false;

  /** --bom: once, whatever writers follow (a report's parts). */
  private readonly bomWrite = (text: string): Promise<void> => {
    const first = !this.bomWritten;
    this.bomWritten = true;
    return this.write(first ? `\uFEFF${text}` : text);
  };

  private readonly write = (text: string): Promise<void> => this.out.write(text);
}

/** With --fields the columns are the fields; a command's column for the same field keeps its formatting. */
function shapedView(view: View | undefined, shape: Shape): View | undefined {
  if (!shape.fields) return view;
  const own = view?.columns ? normalizeColumns(view.columns).filter((c) => !c.derived) : [];
  return {
    json: view?.json,
    columns: shape.fields.map((field) => {
      const column = own.find((c) => c.key.toLowerCase() === field.toLowerCase());
      return column ? { ...column, key: field, header: field } : { key: field };
    }),
  };
}
