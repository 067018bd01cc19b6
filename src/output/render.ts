// The one renderer (ENGINEERING.md habit 1): commands hand it data, and it
// prints table, JSON, NDJSON or CSV on stdout. JSON is the service's data
// unchanged; tables and CSV are for people and spreadsheets. Written to a
// terminal, every format shows controls from outside as visible escapes
// (CLI.md "untrusted text"): tables always, CSV cells, and the strings of JSON
// as `\uXXXX` escapes so it stays valid JSON. In a pipe or a file JSON and CSV
// are the data unchanged (CSV keeps its formula guard).
import { BrokenPipe, type Writable } from './edges.js';
import { reportValue } from './report-value.js';
import { columnsOf, normalizeColumns, pick, plainText } from './columns.js';
import { csvWriter } from './csv.js';
import { jsonForTerminal, neutralize, neutralizeLines } from './sanitize.js';
import { project, shapeData, type Shape } from './shape.js';
import { drawTable, fitWidths, wrapCell, CELL_PADDING, type Column } from './table.js';
import { styleFor, type DisplayStyle } from './numbers.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

export type { Column } from './table.js';
export { PLAIN_STYLE, type DisplayStyle } from './numbers.js';

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
  /** Records without end, until the user stops the command (webhooks listen): written as they come, never held for a pager (src/output/pager.ts). */
  endless?: boolean;
}

/** What a command hands the renderer (src/commands/define.ts Result). */
export interface Rendered {
  /** Records (an array, or an async iterable that yields them as they come), one record, or one value: what -o json prints, unchanged. */
  data?: unknown;
  view?: View;
  /** What a table shows instead of `data` (data reshaped for people); ignored with --fields. */
  display?: unknown;
  /** An action's answer: printed in the JSON formats only (one JSON value). */
  action?: boolean;
  /** Lines for people reading a table, on stderr after the data (an import's first rows not imported); scripts have the data. */
  notes?: string[];
}

/**
 * A report written as its parts come (an import's --dry-run: the mapping,
 * then each problem as it is found, then the counts), so a large one never
 * sits in memory. JSON: one object, a streamed part as an array written as it
 * comes, a part without a key spreading its fields; NDJSON and CSV: the
 * streamed records, then the other parts as one record; a table: each part
 * under its title (on stderr, as notes), then the footer.
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
  /** For people, a line on stdout before the part (a section of the sandbox's ready text); `title` is a note on stderr. */
  heading?: string;
  /** Not for people: the table leaves it out. */
  machineOnly?: boolean;
  /** Only for people: JSON, NDJSON and CSV leave it out (an abbreviated first request; the full one is in the report). */
  peopleOnly?: boolean;
}

export function isReport(value: unknown): value is Report {
  return value !== null && typeof value === 'object' && Array.isArray((value as Report).parts);
}

function isRecords(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}

/** A format's way of writing: a list record by record, one value, or a report. */
interface FormatWriter extends RecordStream {
  value(value: unknown): Promise<void>;
  report(report: Report): Promise<void>;
}

export interface RecordStream {
  write(record: unknown): Promise<void>;
  /** Shows now what was written so far (a delivery's events as they arrive): a terminal's table is drawn whole, the next record starts a new one. */
  flush?(): Promise<void>;
  /** Finishes the stream (closes a JSON array, flushes a table). */
  end(): Promise<void>;
}

/**
 * What a command may use of the renderer. The format is not part of it: a
 * command cannot branch on it (ENGINEERING.md habit 14); it returns data and
 * the renderer decides.
 */
export interface Output {
  /** --limit: at most this many records are printed; a paged walk reads no page past them (core/paginate.ts). */
  readonly limit?: number;
  /** --fields: the fields every printed record is reduced to (a command that reshapes records for its table leaves them as they are). */
  readonly fields?: readonly string[];
  /** Prints what a command returned (src/commands/define.ts Result): every per-format decision is the renderer's. */
  render(result: Rendered): Promise<void>;
  /** Prints a list (array) or one record (object) or a scalar. */
  print(data: unknown, view?: View): Promise<void>;
  /** Prints records one by one, in order, without holding them all. */
  stream(view?: View): RecordStream;
  /** A plain line of text on stdout for people (e.g. a created id). */
  line(text: string): Promise<void>;
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
  /** A line for people on stderr (a report's titles: src/context.ts gives the logger's notices). */
  note?: (line: string) => void;
}

export function createOutput(options: OutputOptions): Output {
  return new Renderer(options);
}

const TABLE_STREAM_CHUNK = 500;

/** Characters of a whole list's output held before they are written (see holding()). */
const HELD_CHARS = 64 * 1024;

/** Records a stream hands jq at once when the expression runs per record (src/output/jq.ts). */
const JQ_STREAM_CHUNK = 500;

class Renderer implements Output {
  private readonly format: OutputFormat;
  readonly limit?: number;
  readonly fields?: readonly string[];
  constructor(private readonly o: OutputOptions) {
    // --jq reads what -o json prints, and prints jq's results instead.
    this.format = o.shape?.jq ? 'json' : o.format;
    this.limit = o.shape?.limit;
    this.fields = o.shape?.fields;
  }

  async line(text: string): Promise<void> {
    // A line of text for people (a created id); the JSON formats print values, never lines.
    await this.write(`${this.o.isTTY || this.format === 'table' ? neutralize(text) : text}\n`);
  }

  async render(result: Rendered): Promise<void> {
    const { data, view } = result;
    if (data === undefined) return;
    // --jq and --fields work on the value --json prints: a report's is gathered first.
    if (isReport(data)) return this.o.shape ? this.print(await reportValue(data)) : this.writer(undefined).report(data);
    const machine = this.format === 'json' || this.format === 'ndjson';
    // An action's answer is for scripts: one JSON value in the JSON formats;
    // for people the command's message says what was done (CLI.md "--json").
    if (result.action && !machine) return;
    // What people read in a table may be the data reshaped (one line per
    // action, per target); --fields names the service's fields, so then the data itself.
    const shown = this.format === 'table' && result.display !== undefined && !this.fields ? result.display : data;
    if (isReport(shown)) return this.writer(undefined).report(shown);
    if (isRecords(shown)) {
      // Records that come one by one (a page walk): written as they come, never held.
      const stream = this.stream(view);
      for await (const record of shown) await stream.write(record);
      await stream.end();
      return;
    }
    await this.print(shown, view);
    if (this.format === 'table' && result.notes) for (const line of result.notes) this.o.note?.(line);
  }

  async print(data: unknown, view?: View): Promise<void> {
    const shape = this.o.shape;
    if (shape) {
      data = shapeData(data, shape);
      view = shapedView(view, shape);
    }
    if (shape?.jq) return shape.jq.run(data, this.jqWrite, this.o.signal);
    const writer = this.writer(view);
    if (!Array.isArray(data)) return writer.value(data);
    const records = data;
    await this.holding(async () => {
      for (const record of records) await writer.write(record);
      await writer.end();
    });
  }

  stream(view?: View): RecordStream {
    if (view?.endless) this.o.stdout.unpaged?.();
    const shape = this.o.shape;
    if (!shape) return this.writer(view);
    const { limit, fields, jq } = shape;
    const inner = jq ? this.jqStream(jq) : this.writer(shapedView(view, shape));
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

  /** A report as one JSON object, a streamed part as an array written as it comes. */
  private async jsonReport(report: Report): Promise<void> {
    await this.write('{');
    let first = true;
    const key = async (name: string) => {
      await this.write(`${first ? '\n' : ',\n'}  ${JSON.stringify(name)}: `);
      first = false;
    };
    for (const part of report.parts) {
      if (part.peopleOnly) continue;
      const value: unknown = await part.value;
      if (isRecords(value)) {
        await key(part.key ?? 'records');
        let count = 0;
        for await (const record of value) await this.write(`${count++ === 0 ? '[\n' : ',\n'}${this.jsonText(indent(indent(JSON.stringify(record ?? null))))}`);
        await this.write(count === 0 ? '[]' : '\n  ]');
        continue;
      }
      const fields: [string, unknown][] = part.key === undefined ? Object.entries((value ?? {}) as Record<string, unknown>) : [[part.key, value]];
      for (const [name, v] of fields) {
        await key(name);
        await this.write(this.jsonText(JSON.stringify(v ?? null, null, 2).split('\n').join('\n  ')));
      }
    }
    return this.write(first ? '}\n' : '\n}\n');
  }

  /** A report as NDJSON or CSV: the streamed records, then the other parts as one record. */
  private async flatReport(report: Report): Promise<void> {
    const rest: Record<string, unknown> = {};
    for (const part of report.parts) {
      if (part.peopleOnly) continue;
      const value: unknown = await part.value;
      if (isRecords(value)) {
        const writer = this.writer(part.view);
        for await (const record of value) await writer.write(record);
        await writer.end();
      } else if (part.key === undefined) Object.assign(rest, value);
      else rest[part.key] = value;
    }
    return this.writer(undefined).value(rest);
  }

  /** A report for people: each part under its title (a note on stderr) or heading, then the footer. */
  private async peopleReport(report: Report): Promise<void> {
    const note = this.o.note ?? (() => undefined);
    for (const part of report.parts) {
      if (part.machineOnly) continue;
      const value: unknown = await part.value;
      const title = typeof part.title === 'function' ? part.title() : part.title;
      // A streamed part's title waits for its first record, or its end: a run that fails first says only why.
      if (title && !isRecords(value)) note(title);
      // A heading is the command's own text, not the service's: written as it is.
      if (part.heading !== undefined) await this.write(`${part.heading}\n`);
      if (Array.isArray(value) && value.length === 0 && part.empty) {
        await (part.heading !== undefined ? this.line(part.empty) : note(part.empty));
        continue;
      }
      if (isRecords(value)) {
        let count = 0;
        // Opened with the first record: an empty table would say '(no results)' beside the part's own word.
        let writer: FormatWriter | undefined;
        for await (const record of value) {
          if (!writer && title) note(title);
          writer ??= this.writer(part.view);
          count++;
          await writer.write(record);
        }
        await writer?.end();
        if (count === 0 && title) note(title);
        if (count === 0 && part.empty) note(part.empty);
        continue;
      }
      const display: unknown = await part.display;
      await this.print(display ?? value, part.view);
    }
    if (report.footer) note(report.footer);
  }

  /**
   * Records through jq: per slice as they come when the expression runs per
   * record, or gathered (up to a bound) and run at the end when it needs the
   * whole array (src/output/jq.ts).
   */
  private jqStream(jq: NonNullable<Shape['jq']>): RecordStream {
    const signal = this.o.signal;
    if (!jq.perRecord) {
      const gathering = jq.gather();
      return {
        write: async (record) => gathering.add(record),
        end: () => gathering.run(this.jqWrite, signal),
      };
    }
    let buffer: unknown[] = [];
    let scheduled = false;
    // Chunks run one after another, in order: the end waits for the one still running.
    let running: Promise<void> = Promise.resolve();
    // A run that failed (a jq error, a closed stdout) fails the next write and the end.
    let failed: { error: unknown } | undefined;
    const flush = (): Promise<void> => {
      scheduled = false;
      const chunk = buffer;
      buffer = [];
      if (chunk.length) {
        running = running
          .then(() => jq.run(chunk, this.jqWrite, signal))
          .catch((error: unknown) => {
            failed ??= { error };
          });
      }
      return running;
    };
    const settled = async () => {
      await flush();
      if (failed) throw failed.error;
    };
    return {
      write: async (record) => {
        if (failed) throw failed.error;
        buffer.push(record);
        if (buffer.length >= JQ_STREAM_CHUNK) return settled();
        // What a page gave is written once its records are in: after the writes queued in this turn.
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      },
      end: settled,
    };
  }

  /** jq's output as it comes: its raw strings are the service's text, so on a terminal their controls are shown, not obeyed. */
  private readonly jqWrite = (text: string): Promise<void> => this.write(this.o.isTTY ? neutralizeLines(text) : text);

  /**
   * The one place that decides per format (ENGINEERING.md habit 14): how a
   * list's records are written, one by one, and how one value that is not a
   * list is. JSON is the data unchanged; NDJSON one value a line; CSV a header
   * and rows; a table for people (data that has no table, such as a raw
   * answer of `email api`, is JSON there).
   */
  private writer(view: View | undefined): FormatWriter {
    const format = view?.json && this.format === 'table' ? 'json' : this.format;
    let count = 0;
    switch (format) {
      case 'json':
        return {
          write: (record) => this.write(`${count++ === 0 ? '[\n' : ',\n'}${this.jsonText(indent(JSON.stringify(record ?? null, null, 2)))}`),
          end: () => this.write(count === 0 ? '[]\n' : '\n]\n'),
          value: (value) => this.write(`${this.jsonText(JSON.stringify(value ?? null, null, view?.compact ? undefined : 2))}\n`),
          report: (report) => this.jsonReport(report),
        };
      case 'ndjson': {
        const write = (record: unknown) => this.write(`${this.jsonText(JSON.stringify(record ?? null))}\n`);
        return { write, end: async () => undefined, value: write, report: (report) => this.flatReport(report) };
      }
      case 'csv':
        return { ...csvWriter(view, this.o.isTTY, (text) => this.write(text)), report: (report) => this.flatReport(report) };
      case 'table':
        return this.tableWriter(view);
    }
  }

  private tableWriter(view: View | undefined): FormatWriter {
    let count = 0;
    let pending: unknown[] = [];
    let columns: Column[] | undefined;
    let widths: number[] | undefined;
    // A long stream is printed as one table in chunks: the first chunk has the
    // top border and header, and the bottom border waits for the end.
    let bottom: string | undefined;
    const flushTable = async (ending: boolean) => {
      if (!pending.length) return;
      columns ??= columnsOf(pending, view);
      const first = count === pending.length;
      // All the records in one chunk: one table sized to them, as a list printed whole is.
      const whole = first && ending;
      const drawn = await this.table(pending, columns, first, widths, { top: first, stream: !whole });
      widths = drawn?.widths;
      bottom = whole ? undefined : drawn?.bottom;
      pending = [];
    };
    return {
      write: async (record) => {
        count++;
        // In a pipe each record is its own tab-separated line, written at
        // once: `| head -1` sees it (and the walk stops) without waiting
        // for a chunk. On a terminal, chunks size the columns.
        if (!this.o.isTTY) {
          columns ??= columnsOf([record], view);
          await this.table([record], columns, false);
          return;
        }
        pending.push(record);
        if (pending.length >= TABLE_STREAM_CHUNK) await flushTable(false);
      },
      flush: async () => {
        if (!pending.length) return;
        // Drawn as a table of its own: the next record starts a new one, with its header.
        const before = count;
        count = pending.length;
        await flushTable(true);
        count = before;
        columns = undefined;
        widths = undefined;
        bottom = undefined;
      },
      end: async () => {
        await flushTable(true);
        if (bottom !== undefined) await this.write(`${bottom}\n`);
        else if (count === 0 && this.o.isTTY) await this.write('(no results)\n');
      },
      report: (report) => this.peopleReport(report),
      value: async (value) => {
        if (view?.text && typeof value === 'string') return this.write(value.endsWith('\n') ? value : `${value}\n`);
        if (value !== null && typeof value === 'object') return this.record(value as Record<string, unknown>, view);
        return this.line(String(value ?? ''));
      },
    };
  }

  /**
   * Bordered table on a TTY; tab-separated lines without header in a pipe (as gh does).
   * `part` lets a stream print one table in chunks: without the top border
   * after the first, the bottom border held back (returned) for the end, and
   * widths fixed by the first chunk with room to spare.
   */
  private async table(
    rows: unknown[],
    columns: Column[],
    header: boolean,
    fixedWidths?: number[],
    part: { top: boolean; stream: boolean } = { top: true, stream: false },
  ): Promise<{ widths: number[]; bottom: string } | undefined> {
    const style = this.style();
    const cells = rows.map((row) => columns.map((c) => displayText(pick(row, c.key), c, row, style)));
    if (!this.o.isTTY) {
      await this.write(cells.map((r) => `${r.join('\t')}\n`).join(''));
      return undefined;
    }
    if (!rows.length && header) {
      await this.write('(no results)\n');
      return undefined;
    }
    const paint = await this.painter();
    // Headers may be the service's field names: neutralised, then painted; wrapped at spaces only (src/output/table.ts).
    const shown = columns.map((c) => ({ ...c, header: neutralize(c.header ?? c.key) }));
    const widths = fixedWidths ?? fitWidths(shown, cells, this.o.columns, part.stream);
    const head = header ? shown.map((c, i) => paint(wrapCell(c.header, widths[i]! - CELL_PADDING))) : undefined;
    const { text, bottom } = await drawTable(cells, shown, { head, widths, ...part });
    await this.write(text);
    return { widths, bottom };
  }

  /** One record as a two-column Field/Value table. */
  private async record(record: Record<string, unknown>, view?: View): Promise<void> {
    const columns: Column[] = view?.columns ? normalizeColumns(view.columns) : Object.keys(record).map((key) => ({ key }));
    const style = this.style();
    const pairs = columns.map((c) => ({ field: c.header ?? c.key, value: displayText(pick(record, c.key), c, record, style) }));
    await this.table(pairs, [{ key: 'field', header: 'Field' }, { key: 'value', header: 'Value' }], this.o.isTTY);
  }

  private style(): DisplayStyle {
    return styleFor(this.o.isTTY);
  }

  private async painter(): Promise<(s: string) => string> {
    if (!this.o.color) return (s) => s;
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    return (s) => chalk.bold(s);
  }

  /** JSON text as it may reach stdout: escaped for a terminal, unchanged elsewhere. */
  private jsonText(json: string): string {
    return this.o.isTTY ? jsonForTerminal(json) : json;
  }

  /**
   * Resolves once stdout takes the text (after 'drain' when it pushes back).
   * Rejects with BrokenPipe once the reader went away, so a command stops at
   * its next write (src/output/edges.ts).
   */
  private async write(text: string): Promise<void> {
    if (this.held) {
      this.held.push(text);
      this.heldLength += text.length;
      if (this.heldLength < HELD_CHARS) return;
      return this.writeOut(this.release());
    }
    return this.writeOut(text);
  }

  /**
   * What a whole list (print) writes record by record is held and written in
   * pieces of HELD_CHARS: one write for a short list, as when the list was
   * one string, and bounded memory for a long one. A stream writes each record at once.
   */
  private async holding(run: () => Promise<void>): Promise<void> {
    if (this.held) return run();
    this.held = [];
    try {
      await run();
    } catch (error) {
      this.held = undefined;
      throw error;
    }
    const rest = this.release();
    this.held = undefined;
    if (rest) await this.writeOut(rest);
  }

  private held: string[] | undefined;
  private heldLength = 0;

  private release(): string {
    const text = this.held!.join('');
    this.held = [];
    this.heldLength = 0;
    return text;
  }

  private async writeOut(text: string): Promise<void> {
    const stdout = this.o.stdout;
    if (stdout.closed) throw new BrokenPipe();
    const ok = stdout.write(text);
    if (!ok && stdout.once) await new Promise<void>((resolve) => stdout.once!('drain', resolve));
    if (stdout.closed) throw new BrokenPipe();
  }
}

function indent(json: string): string {
  return json
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** With --fields, the columns are the fields, in their order; a command's column for the same field keeps its formatting. */
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

function displayText(value: unknown, column: Column, row: unknown, style: DisplayStyle): string {
  // A whole number is a count (recipients, rows): grouped for people at a terminal (CLI.md "numbers").
  const count = typeof value === 'number' && Number.isSafeInteger(value) ? style.count(value) : undefined;
  const text = column.format ? column.format(value, (row ?? {}) as Record<string, unknown>, style) : (count ?? plainText(value));
  return neutralize(text);
}
