// One fast pass over the whole input before the first request: a file the
// parser would give up on half-way (an unclosed quote, binary data, bad UTF-8,
// a record too long for a request body) is refused while nothing is sent, and
// the rows without a name are counted (names.ts). It follows the parser's quoting.
import { isUtf8 } from 'node:buffer';
import { UsageError } from '../core/errors.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const AT = 0x40;
/** Marks "before the first byte": a field starts there. */
const START = -1;

/** A batch of rows is kept as JSON in memory: longer rows made one string longer than V8 allows. */
export const MAX_RECORD_BYTES = 1024 * 1024;

export interface NameColumns {
  emailColumn: number;
  nameColumns: readonly number[];
}

export interface EmptyNameCount {
  rows: number;
  /** -1: none. */
  firstOffset: number;
  /** The header as this pass read it: the parser's, but for odd quoting. */
  header?: string[];
}

interface StructureReport {
  /** Some quoted field holds a line break: line numbers must count them. */
  quotedLineBreaks: boolean;
  /** Else the parser need look for \n alone. */
  carriageReturns: boolean;
  bytes: number;
  /** Records, the header included: an upper bound (blank lines count), enough for the progress. */
  records: number;
  emptyNames?: EmptyNameCount;
}

interface StructureProblem {
  kind: 'unclosed-quote' | 'binary' | 'not-utf8' | 'long-record';
  /** Of the record's start, for a long record. */
  offset: number;
}

/** Scans the text; returns a problem instead of throwing, so the caller can name the line. */
export async function scanStructure(
  stream: AsyncIterable<Buffer>,
  delimiter: number,
  checkUtf8: boolean,
  namesOf?: (header: string[]) => NameColumns,
): Promise<StructureReport | StructureProblem> {
  const names = namesOf && new NameCounter(namesOf, delimiter);
  let inQuote = false;
  // The previous chunk ended on a quote inside a quoted field: the next byte decides.
  let pendingQuote = false;
  let prev = START;
  let offset = 0;
  let openedAt = 0;
  let quotedLineBreaks = false;
  let carriageReturns = false;
  let lineFeeds = 0;
  let returns = 0;
  let recordStart = 0;
  // The bytes of a UTF-8 sequence cut by a chunk boundary.
  let carry: Buffer | undefined;

  // A chunk may be overwritten once the next one is asked for (input.ts scanChunks): nothing of it is kept but a copied carry.
  for await (const chunk of stream) {
    const buf = chunk;
    const length = buf.length;
    if (length === 0) continue;

    const nul = buf.indexOf(0);
    if (nul >= 0) return { kind: 'binary', offset: offset + nul };
    // The next \n and \r (-1: none left) only move forward, so each byte is
    // looked at once however many quotes the chunk holds.
    let cr = buf.indexOf(CR);
    if (cr >= 0) carriageReturns = true;
    let lf = buf.indexOf(LF);
    if (checkUtf8) {
      const problem = utf8Problem(carry, buf);
      if (problem !== undefined) return { kind: 'not-utf8', offset: offset + problem };
      const tail = incompleteTail(buf);
      carry = tail && Buffer.from(tail);
    }

    let i = 0;
    if (pendingQuote) {
      pendingQuote = false;
      if (buf[0] === QUOTE) i = 1; // `""`: an escaped quote, still inside the field
      else inQuote = false;
    }
    while (i < length) {
      const q = buf.indexOf(QUOTE, i);
      const end = q < 0 ? length : q;
      if (lf >= 0 && lf < i) lf = buf.indexOf(LF, i);
      if (cr >= 0 && cr < i) cr = buf.indexOf(CR, i);
      if (inQuote) {
        if ((lf >= 0 && lf < end) || (cr >= 0 && cr < end)) quotedLineBreaks = true;
        if (q < 0) break;
        if (q + 1 === length) {
          pendingQuote = true;
          break;
        }
        if (buf[q + 1] === QUOTE) {
          i = q + 2;
          continue;
        }
        inQuote = false;
        i = q + 1;
      } else {
        // \n, \r\n and a lone \r each end a record, as the parser reads them.
        for (;;) {
          let at: number;
          if (lf >= 0 && lf < end && (cr < 0 || lf < cr)) {
            at = lf;
            lineFeeds++;
            lf = buf.indexOf(LF, lf + 1);
          } else if (cr >= 0 && cr < end) {
            at = cr;
            returns++;
            cr = buf.indexOf(CR, cr + 1);
          } else {
            break;
          }
          if (offset + at - recordStart > MAX_RECORD_BYTES) return { kind: 'long-record', offset: recordStart };
          names?.record(buf, recordStart - offset, at, recordStart);
          recordStart = offset + at + 1;
        }
        if (q < 0) break;
        const before = q === 0 ? prev : buf[q - 1]!;
        if (before === delimiter || before === LF || before === CR || before === START) {
          inQuote = true;
          openedAt = offset + q;
        }
        i = q + 1;
      }
    }
    prev = buf[length - 1]!;
    names?.keep(buf, recordStart - offset);
    offset += length;
    // Refused now, not at its end: a gzip bomb of one character has none.
    if (offset - recordStart > MAX_RECORD_BYTES) return { kind: 'long-record', offset: recordStart };
  }
  if (carry && carry.length) return { kind: 'not-utf8', offset: offset - carry.length };
  // A quote as the very last byte closes the field.
  if (inQuote && !pendingQuote) return { kind: 'unclosed-quote', offset: openedAt };
  if (offset - recordStart > MAX_RECORD_BYTES) return { kind: 'long-record', offset: recordStart };
  // Old Mac text ends its lines in \r alone; elsewhere \r comes before \n and is not counted twice.
  const breaks = lineFeeds > 0 ? lineFeeds : returns;
  const records = offset === 0 ? 0 : breaks + (prev === LF || prev === CR ? 0 : 1);
  if (records > breaks) names?.record(Buffer.alloc(0), 0, 0, recordStart);
  return { quotedLineBreaks, carriageReturns, bytes: offset, records, emptyNames: names && { rows: names.rows, firstOffset: names.firstOffset, header: names.header } };
}

/** The rows rows.ts would send with an empty Name (CLI.md "Names"), reading cells only up to the last column needed. */
class NameCounter implements EmptyNameCount {
  rows = 0;
  firstOffset = -1;
  header: string[] | undefined;
  /** The start of a record cut by a chunk's end (the chunk itself is reused). */
  private carry: Buffer | undefined;
  /** -1: the header could not be mapped, and nothing is counted. */
  private email = -1;
  private isName = new Uint8Array(0);

  constructor(
    private readonly namesOf: (header: string[]) => NameColumns,
    private readonly delimiter: number,
  ) {}

  /** A negative start: the record began in the carried bytes. */
  record(buf: Buffer, start: number, end: number, offset: number): void {
    if (this.carry) {
      buf = Buffer.concat([this.carry, buf.subarray(0, end)]);
      this.carry = undefined;
      start = 0;
      end = buf.length;
    }
    if (this.header === undefined) return this.columnsOf(cellsOf(buf, start, end, this.delimiter));
    if (this.email >= 0 && this.blankNames(buf, start, end) && this.rows++ === 0) this.firstOffset = offset;
  }

  /** Read from the header here, not by a parser of its own: running the parser on it made the parse of the rows slower. */
  private columnsOf(header: string[]): void {
    this.header = header;
    try {
      const columns = this.namesOf(header);
      this.isName = new Uint8Array(Math.max(columns.emailColumn, ...columns.nameColumns) + 1);
      for (const c of columns.nameColumns) this.isName[c] = 1;
      this.email = columns.emailColumn;
    } catch {
      // The import refuses such a header in its own words once the parser has read it.
    }
  }

  keep(buf: Buffer, start: number): void {
    if (start >= buf.length) return;
    const tail = buf.subarray(Math.max(0, start));
    this.carry = this.carry ? Buffer.concat([this.carry, tail]) : Buffer.from(tail);
  }

  /** Cells as the parser reads them; a row that ends before the last column needed is refused, not sent. */
  private blankNames(buf: Buffer, i: number, end: number): boolean {
    const { email, isName, delimiter } = this;
    for (let column = 0; column < isName.length; column++) {
      if (i > end) return false;
      const name = isName[column] === 1;
      let at = false;
      if (i < end && buf[i] === QUOTE) {
        for (i++; i < end; i++) {
          const b = buf[i]!;
          if (b === QUOTE) {
            if (i + 1 < end && buf[i + 1] === QUOTE) {
              if (name) return false;
              i++;
              continue;
            }
            i++;
            break;
          }
          if (name && b !== SPACE && b !== TAB && b !== LF && b !== CR) return false;
          if (b === AT) at = true;
        }
      }
      for (; i < end; i++) {
        const b = buf[i]!;
        if (b === delimiter) break;
        if (name && b !== SPACE && b !== TAB) return false;
        if (b === AT) at = true;
      }
      if (column === email && !at) return false;
      i++;
    }
    return true;
  }
}

/** The cells of a record, read as blankNames() reads them. */
function cellsOf(buf: Buffer, i: number, end: number, delimiter: number): string[] {
  const cells: string[] = [];
  for (;;) {
    let cell = '';
    if (i < end && buf[i] === QUOTE) {
      let from = ++i;
      for (; i < end; i++) {
        if (buf[i] !== QUOTE) continue;
        cell += buf.toString('utf8', from, i);
        from = i + 1;
        if (i + 1 < end && buf[i + 1] === QUOTE) i++;
        else break;
      }
      if (i < end) i++;
      else cell += buf.toString('utf8', from, end);
    }
    const from = i;
    while (i < end && buf[i] !== delimiter) i++;
    cells.push(cell + buf.toString('utf8', from, i));
    if (i++ >= end) return cells;
  }
}

/** Offset (in `buf`) of the first byte that breaks UTF-8, or undefined. */
function utf8Problem(carry: Buffer | undefined, buf: Buffer): number | undefined {
  const tail = incompleteTail(buf);
  const whole = tail ? buf.subarray(0, buf.length - tail.length) : buf;
  if (carry && carry.length) {
    // Complete the cut sequence with the first bytes of this chunk.
    const need = sequenceLength(carry[0]!) - carry.length;
    const joined = Buffer.concat([carry, buf.subarray(0, need)]);
    if (need > buf.length || !isUtf8(joined)) return 0;
    if (!isUtf8(whole.subarray(need))) return need + firstInvalid(whole.subarray(need));
    return undefined;
  }
  if (!isUtf8(whole)) return firstInvalid(whole);
  return undefined;
}

function incompleteTail(buf: Buffer): Buffer | undefined {
  for (let back = 1; back <= 3 && back <= buf.length; back++) {
    const b = buf[buf.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    if (b < 0x80) return undefined;
    return sequenceLength(b) > back ? buf.subarray(buf.length - back) : undefined;
  }
  return undefined;
}

function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** Only called once something is known to be wrong: finds where. */
function firstInvalid(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const n = sequenceLength(buf[i]!);
    if (buf[i]! >= 0x80 && buf[i]! < 0xc0) return i;
    if (!isUtf8(buf.subarray(i, i + n))) return i;
    i += n;
  }
  return 0;
}

export async function lineAt(stream: AsyncIterable<Buffer>, target: number): Promise<number> {
  let line = 1;
  let offset = 0;
  let lastWasCr = false;
  for await (const chunk of stream) {
    const end = Math.min(chunk.length, target - offset);
    for (let i = 0; i < end; i++) {
      const b = chunk[i];
      // \n, \r\n and a lone \r each end one line.
      if (b === LF) {
        if (!lastWasCr) line++;
        lastWasCr = false;
      } else if (b === CR) {
        line++;
        lastWasCr = true;
      } else {
        lastWasCr = false;
      }
    }
    offset += chunk.length;
    // Leaving the loop closes the source (the file handle, or the stream).
    if (offset >= target) break;
  }
  return line;
}

export function structureError(name: string, problem: StructureProblem, line: number): UsageError {
  switch (problem.kind) {
    case 'unclosed-quote': {
      const error = new UsageError(`${name}: unclosed quote at line ${line}`);
      error.hint = 'A field that starts with " must end with "; a quote inside a quoted field is written "". Nothing was sent.';
      return error;
    }
    case 'binary':
      return new UsageError(`${name} does not look like CSV text: binary data (a NUL byte) at line ${line}; nothing was sent`);
    case 'long-record': {
      const error = new UsageError(`${name}: the record at line ${line} is longer than 1 MiB; nothing was sent`);
      error.hint = 'A row is at most 1 MiB (1,048,576 bytes). A quote opened in one line and closed many lines later makes one record of them: check the quotes from that line on.';
      return error;
    }
    case 'not-utf8': {
      const error = new UsageError(`${name} is not UTF-8 text: invalid byte at line ${line}; nothing was sent`);
      error.hint = 'Excel\'s "CSV (Comma delimited)" is Windows-1252: pass --encoding windows-1252, or save the sheet as "CSV UTF-8".';
      return error;
    }
  }
}
