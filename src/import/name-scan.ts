// One pass over the text before the first request, counting the rows that
// would be sent with an empty Name (CLI.md "Names": the import stops before
// sending, as for a missing consent). A byte scanner, not the parser: it
// reads the cells of a record only up to the last column it needs (the
// address and the name columns, usually the first few) and jumps over the
// rest from quote to quote with Buffer.indexOf, as structure-check.ts does.
// It follows the parser's quoting (source.ts: RFC 4180 quotes, `""`,
// relax_quotes: a quote that does not start a field is an ordinary character).

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const AT = 0x40;

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: the next byte says whether it is `""` or the end. */
  QuotedQuote,
  /** Past the columns that matter: looking for the record's end. */
  Skip,
  SkipQuoted,
  SkipQuotedQuote,
}

export interface NameScanResult {
  /** Data rows with an @ in the address cell and nothing (but spaces) in every name cell. */
  rows: number;
  /** Byte offset, in the text after the header's preamble, of the first such row (-1: none). */
  firstOffset: number;
}

/**
 * Counts the data rows (after the header) whose address cell holds an @
 * and whose name cells hold nothing but spaces: the rows rows.ts would send
 * with an empty Name, give or take rows refused for other reasons. A row that
 * ends before the last of these columns is refused (missing-fields), not counted.
 */
export async function scanEmptyNames(
  chunks: AsyncIterable<Buffer>,
  o: { delimiter: string; carriageReturns: boolean; emailColumn: number; nameColumns: readonly number[] },
): Promise<NameScanResult> {
  const delimiter = o.delimiter.charCodeAt(0);
  const crEnds = o.carriageReturns;
  const email = o.emailColumn;
  const isName = new Uint8Array(Math.max(email, ...o.nameColumns) + 1);
  for (const c of o.nameColumns) isName[c] = 1;
  const last = isName.length - 1;

  let state = State.FieldStart;
  let header = true;
  let column = 0;
  let content = false;
  let hasEmail = false;
  let hasName = false;
  /** The cell being read holds an @ (a cell without one is no address: that row is refused, not sent). */
  let at = false;
  let rows = 0;
  let firstOffset = -1;
  let recordStart = 0;
  let offset = 0;
  let prev = LF;

  const endField = () => {
    if (column === email) hasEmail = content && at;
    else if (column <= last && isName[column] === 1 && content) hasName = true;
    column++;
    content = false;
    at = false;
  };
  const endRecord = (end: number) => {
    if (header) header = false;
    else if (column > last && hasEmail && !hasName) {
      if (rows++ === 0) firstOffset = recordStart;
    }
    column = 0;
    content = false;
    hasEmail = false;
    hasName = false;
    at = false;
    recordStart = offset + end + 1;
    state = State.FieldStart;
  };

  for await (const buf of chunks) {
    const length = buf.length;
    let i = 0;
    // Cached positions of the next \n, \r and quote at or after i (-1: none left in the chunk); each moves only forward.
    let lf = -2;
    let cr = -2;
    let quote = -2;

    while (i < length) {
      if (state === State.Skip || state === State.SkipQuoted || state === State.SkipQuotedQuote) {
        if (state === State.SkipQuotedQuote) {
          if (buf[i] === QUOTE) {
            state = State.SkipQuoted;
            i++;
          } else state = State.Skip;
          continue;
        }
        if (quote !== -1 && quote < i) quote = buf.indexOf(QUOTE, i);
        if (state === State.SkipQuoted) {
          if (quote < 0) break;
          if (quote + 1 === length) {
            state = State.SkipQuotedQuote;
            i = length;
            break;
          }
          if (buf[quote + 1] === QUOTE) i = quote + 2;
          else {
            state = State.Skip;
            i = quote + 1;
          }
          continue;
        }
        if (lf !== -1 && lf < i) lf = buf.indexOf(LF, i);
        if (crEnds && cr !== -1 && cr < i) cr = buf.indexOf(CR, i);
        let end = lf;
        if (crEnds && cr >= 0 && (end < 0 || cr < end)) end = cr;
        if (quote >= 0 && (end < 0 || quote < end)) {
          const before = quote === 0 ? prev : buf[quote - 1]!;
          if (before === delimiter) state = State.SkipQuoted;
          i = quote + 1;
          continue;
        }
        if (end < 0) break;
        endRecord(end);
        i = end + 1;
        continue;
      }
      const b = buf[i]!;
      if (b === AT) at = true;
      switch (state) {
        case State.FieldStart:
          if (b === QUOTE) state = State.Quoted;
          else if (b === delimiter) endField();
          else if (b === LF || (b === CR && crEnds)) {
            endField();
            endRecord(i);
          } else {
            state = State.Unquoted;
            if (b !== SPACE && b !== TAB) content = true;
          }
          break;
        case State.Unquoted:
          if (b === delimiter) {
            endField();
            state = State.FieldStart;
          } else if (b === LF || (b === CR && crEnds)) {
            endField();
            endRecord(i);
          } else if (b !== SPACE && b !== TAB) content = true;
          break;
        case State.Quoted:
          if (b === QUOTE) state = State.QuotedQuote;
          else if (b !== SPACE && b !== TAB && b !== LF && b !== CR) content = true;
          break;
        case State.QuotedQuote:
          if (b === QUOTE) {
            content = true;
            state = State.Quoted;
          } else if (b === delimiter) {
            endField();
            state = State.FieldStart;
          } else if (b === LF || (b === CR && crEnds)) {
            endField();
            endRecord(i);
          } else {
            state = State.Unquoted;
            if (b !== SPACE && b !== TAB) content = true;
          }
          break;
      }
      // The columns that matter are read: the rest of the record is jumped over.
      if (column > last && state === State.FieldStart) state = State.Skip;
      i++;
    }
    prev = buf[length - 1] ?? prev;
    offset += length;
  }
  // A last line without a line break.
  if (state !== State.FieldStart || column > 0) {
    if (state !== State.Skip && state !== State.SkipQuoted && state !== State.SkipQuotedQuote) endField();
    endRecord(-1);
  }
  return { rows, firstOffset };
}
