// The first stage of an import: the text → records with their physical line
// numbers, once the whole text is checked (nothing is sent for a broken file).
// csv-parse in array mode is read straight with read(): an async iterator
// hop per row cost more than all of the mapping.
import { CsvError, parse, type Parser } from 'csv-parse';
import { UsageError } from '../core/errors.js';
import type { ImportInput } from './input.js';
import { lineAt, MAX_RECORD_BYTES, scanStructure, structureError, type EmptyNameCount, type NameColumns } from './structure-check.js';
import { scanChunks, utf8Source } from './text.js';

const CANDIDATE_DELIMITERS = [',', ';', '\t'] as const;

/** A guard only: a character is at least a byte, and the structure check refuses longer records first. */
const MAX_RECORD_CHARS = MAX_RECORD_BYTES;

/**
 * The widest header accepted (CLI.md "Import input"): every column is repeated
 * in every entry of a request, and a far wider header made a batch one string
 * longer than V8 allows; no real list has a thousand custom fields.
 */
const MAX_COLUMNS = 1000;

export function parseDelimiterFlag(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text === '\\t' || text.toLowerCase() === 'tab') return '\t';
  if ([...text].length !== 1) throw new UsageError(`--delimiter must be one character (or "tab"); got "${text}"`);
  if (text === '"' || text === '\n' || text === '\r') throw new UsageError(`--delimiter cannot be ${JSON.stringify(text)}`);
  return text;
}

export function describeDelimiter(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `"${delimiter}"`;
}

/** The candidate that appears as often on most sampled lines, then the one with most fields; `,` when none fits. */
export function sniffDelimiter(head: string): string {
  const lines = sampleLines(head, 25);
  if (lines.length === 0) return ',';
  let best = ',';
  let bestScore = -1;
  for (const candidate of CANDIDATE_DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, candidate));
    const first = counts[0]!;
    if (first === 0) continue;
    const agreeing = counts.filter((c) => c === first).length / counts.length;
    // Consistency first (a comma inside names varies from line to line), then the number of fields.
    const score = (agreeing >= 0.8 ? 1_000_000 : agreeing * 1000) + first;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** Physical records of the head, quote-aware so a quoted line break does not split a record. */
function sampleLines(head: string, max: number): string[] {
  const lines: string[] = [];
  let start = 0;
  let inQuote = false;
  for (let i = 0; i < head.length && lines.length < max; i++) {
    const c = head[i];
    if (c === '"') inQuote = !inQuote;
    else if (!inQuote && (c === '\n' || c === '\r')) {
      if (i > start) lines.push(head.slice(start, i));
      start = i + 1;
    }
  }
  // The last line of the head may be cut short: only used when it is the only one.
  if (lines.length === 0 && start < head.length) lines.push(head.slice(start));
  return lines.filter((l) => l.trim() !== '');
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let inQuote = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') inQuote = !inQuote;
    else if (c === delimiter && !inQuote) count++;
  }
  return count;
}

export interface TextShape {
  delimiter: string;
  /** Without one the parser looks for \n alone, which is faster. */
  carriageReturns: boolean;
  /** Some quoted field holds a line break: line numbers must count them. */
  quotedLineBreaks: boolean;
  /** An upper bound (blank lines are counted), for the progress. */
  rowsEstimate: number;
  /** Rows that would be sent with an empty Name, when checkText was given the name columns. */
  emptyNames?: EmptyNameCount;
}

/** Given `namesOf`, the same pass counts the rows with an empty name (names.ts): that check costs no pass of its own. */
export async function checkText(input: ImportInput, delimiterFlag: string | undefined, namesOf?: (header: string[]) => NameColumns): Promise<TextShape> {
  const delimiter = delimiterFlag ?? input.sepDelimiter ?? sniffDelimiter(input.head);
  let report: Awaited<ReturnType<typeof scanStructure>>;
  try {
    report = await scanStructure(scanChunks(input), delimiter.charCodeAt(0), input.encoding === 'utf8', namesOf);
  } catch (err) {
    // A gzip stream corrupt or cut short past its head (text.ts): met here, before the first request.
    if (err instanceof UsageError) err.message += '; nothing was sent';
    throw err;
  }
  if ('kind' in report) throw structureError(input.name, report, input.preambleLines + (await lineAt(scanChunks(input), report.offset)));
  return { delimiter, carriageReturns: report.carriageReturns, quotedLineBreaks: report.quotedLineBreaks, rowsEstimate: Math.max(0, report.records - 1), emptyNames: report.emptyNames };
}

/** The data records after the header, each with its physical line. */
export class RowSource {
  line = 0;
  private next: number;
  private failure: UsageError | undefined;

  private constructor(
    private readonly name: string,
    private readonly parser: Parser,
    private readonly file: ReturnType<typeof utf8Source>,
    header: string[],
    private readonly countBreaks: boolean,
    private readonly preambleLines: number,
  ) {
    this.next = 2 + preambleLines + (countBreaks ? lineBreaksIn(header) : 0);
    // Listened to from the start: a failure between two reads is kept for the next more(), not thrown.
    parser.on('error', (err) => (this.failure ??= parseFailure(name, err, preambleLines)));
  }

  static async open(input: ImportInput, shape: TextShape): Promise<{ rows: RowSource; header: string[] | undefined }> {
    const file = utf8Source(input);
    const parser = parse({
      delimiter: shape.delimiter,
      // Every line ending, even mixed in one file (an edited export): csv-parse
      // otherwise keeps the first one it meets and reads the others as data.
      record_delimiter: shape.carriageReturns ? ['\r\n', '\n', '\r'] : ['\n'],
      quote: '"',
      escape: '"',
      // A quote inside an unquoted value (O"Brien) is an ordinary character.
      relax_quotes: true,
      // Ragged rows are judged by the importer, row by row, not fatal to the file.
      relax_column_count: true,
      // Blank lines come through as [''] so line numbers stay exact; the importer skips them.
      skip_empty_lines: false,
      // input.ts has already skipped the BOM.
      bom: false,
      max_record_size: MAX_RECORD_CHARS,
      // For the Transform underneath: the file reads ahead, so the parser never waits on the disk.
      ...({ writableHighWaterMark: 256 * 1024 } as object),
    });
    file.stream.on('error', (err) => parser.destroy(err));
    file.stream.pipe(parser);
    let header: string[] | undefined;
    try {
      header = await readFirstRecord(parser);
    } catch (err) {
      close(file, parser);
      throw parseFailure(input.name, err, input.preambleLines);
    }
    if (header !== undefined && header.length > MAX_COLUMNS) {
      close(file, parser);
      const count = (n: number) => n.toLocaleString('en-US');
      throw new UsageError(`${input.name}: the header has ${count(header.length)} columns; at most ${count(MAX_COLUMNS)} are accepted`);
    }
    return { rows: new RowSource(input.name, parser, file, header ?? [], shape.quotedLineBreaks, input.preambleLines), header };
  }

  /** Null when none is parsed yet (wait for more()) or the text ended. */
  read(): string[] | null {
    const record = this.parser.read() as string[] | null;
    if (record === null) return null;
    this.line = this.next;
    this.next += this.countBreaks ? 1 + lineBreaksIn(record) : 1;
    return record;
  }

  /** Once read() has returned null: false when the text ended or was closed; rejects with a parse or read failure. */
  more(): Promise<boolean> {
    const parser = this.parser;
    if (this.failure) return Promise.reject(this.failure);
    if (parser.readableEnded || parser.destroyed) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      const settle = (more: boolean) => () => {
        parser.off('readable', onReadable).off('end', onEnd).off('close', onEnd).off('error', onError);
        if (this.failure) reject(this.failure);
        else resolve(more);
      };
      const onReadable = settle(true);
      const onEnd = settle(false);
      const onError = settle(false);
      parser.once('readable', onReadable).once('end', onEnd).once('close', onEnd).once('error', onError);
    });
  }

  get ended(): boolean {
    return this.parser.readableEnded;
  }

  bytesRead(): number {
    return this.file.bytesRead();
  }

  close(): void {
    close(this.file, this.parser);
  }
}

function close(file: ReturnType<typeof utf8Source>, parser: Parser): void {
  file.stream.unpipe(parser);
  file.stream.destroy();
  parser.destroy();
}

function readFirstRecord(parser: Parser): Promise<string[] | undefined> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const record = parser.read() as string[] | null;
      if (record === null) return;
      cleanup();
      resolve(record);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      parser.off('readable', attempt);
      parser.off('end', onEnd);
      parser.off('error', onError);
    };
    parser.on('readable', attempt);
    parser.once('end', onEnd);
    parser.once('error', onError);
  });
}

/** Line breaks inside a record's quoted fields (\n, \r\n or a lone \r each count once). */
function lineBreaksIn(record: string[]): number {
  let breaks = 0;
  for (let f = 0; f < record.length; f++) {
    const field = record[f]!;
    for (let i = field.indexOf('\n'); i >= 0; i = field.indexOf('\n', i + 1)) breaks++;
    for (let i = field.indexOf('\r'); i >= 0; i = field.indexOf('\r', i + 1)) if (field.charCodeAt(i + 1) !== 10) breaks++;
  }
  return breaks;
}

/** One line naming the file and the file's own line. */
function parseFailure(name: string, err: unknown, preambleLines: number): UsageError {
  // Already one line naming the file (a gzip stream that fails: text.ts).
  if (err instanceof UsageError) return err;
  if (err instanceof CsvError) {
    const line = (err as CsvError & { lines?: number }).lines;
    const what = err.code === 'CSV_MAX_RECORD_SIZE' ? `a record longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters` : err.message.replace(/\s*at line \d+.*$/, '');
    return new UsageError(`${name}: ${what}${line ? ` at line ${line + preambleLines}` : ''}`);
  }
  if ((err as NodeJS.ErrnoException)?.code) return new UsageError(`${name}: cannot read it (${(err as NodeJS.ErrnoException).code})`);
  return new UsageError(`${name}: ${(err as Error)?.message ?? String(err)}`);
}
