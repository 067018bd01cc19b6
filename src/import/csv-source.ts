// CSV text → records (arrays of strings), streamed: csv-parse in array mode
// (`columns: false`, the faster shape), fed UTF-8 bytes by input.ts, read by
// the importer straight from the parser with read() (no async iterator hop
// per row). The delimiter is sniffed from the head unless given.
import { CsvError, parse, type Parser } from 'csv-parse';
import { UsageError } from '../core/errors.js';
import { utf8Source, type ImportInput } from './input.js';

/** The delimiters tried when none is given (CLI.md "--delimiter"). */
export const CANDIDATE_DELIMITERS = [',', ';', '\t'] as const;

/** A guard against one record eating memory (a runaway field); the structure check catches unclosed quotes first. */
const MAX_RECORD_CHARS = 8 * 1024 * 1024;

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

/**
 * Picks the delimiter from the first lines: the candidate that appears the
 * same number of times (outside quotes) on most sampled lines, preferring the
 * one with the most fields; `,` when nothing fits (a one-column file).
 */
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

export interface RecordSource {
  parser: Parser;
  /** Bytes of the input file read so far. */
  bytesRead(): number;
  /** Stops reading (Ctrl-C, a fatal error): the file is closed, no more records come. */
  close(): void;
}

/**
 * `carriageReturns`: whether the structure check saw a \r anywhere in the text.
 * Without one, the parser looks for \n alone (about 4 % faster over a million rows).
 */
export function openRecords(input: ImportInput, delimiter: string, carriageReturns = true): RecordSource {
  const source = utf8Source(input);
  const parser = parse({
    delimiter,
    // Every line ending, even mixed in one file (an edited export): csv-parse
    // otherwise keeps the first one it meets and reads the others as data.
    record_delimiter: carriageReturns ? ['\r\n', '\n', '\r'] : ['\n'],
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
    // Stream options for the Transform underneath (csv-parse passes them on):
    // let the file read ahead while records are processed, so the parser
    // never waits on the disk (the default 16 KiB stalled it on every chunk).
    ...({ writableHighWaterMark: 256 * 1024 } as object),
  });
  source.stream.on('error', (err) => parser.destroy(err));
  source.stream.pipe(parser);
  return {
    parser,
    bytesRead: source.bytesRead,
    close: () => {
      source.stream.unpipe(parser);
      source.stream.destroy();
      parser.destroy();
    },
  };
}

/** The first record (the header), or undefined for a file without any. */
export function readFirstRecord(parser: Parser): Promise<string[] | undefined> {
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

/** A parse failure as a one-line refusal naming the file and the line. */
export function parseFailure(name: string, err: unknown): UsageError {
  if (err instanceof CsvError) {
    const line = (err as CsvError & { lines?: number }).lines;
    const what = err.code === 'CSV_MAX_RECORD_SIZE' ? `a record longer than ${MAX_RECORD_CHARS} characters` : err.message.replace(/\s*at line \d+.*$/, '');
    return new UsageError(`${name}: ${what}${line ? ` at line ${line}` : ''}`);
  }
  if ((err as NodeJS.ErrnoException)?.code) return new UsageError(`${name}: cannot read it (${(err as NodeJS.ErrnoException).code})`);
  return new UsageError(`${name}: ${(err as Error)?.message ?? String(err)}`);
}
