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

  /**
   * At the start of a field: when the field ends in this chunk, notes whether
   * it holds anything but spaces (content) and an @ (at), moves past it to
   * the byte that ends it (jumped) and returns true; the byte loop reads it
   * otherwise (a field cut by the chunk's end, or a quoted one with "").
   */
  let jumped = 0;
  const jumpField = (buf: Buffer, i: number, length: number): boolean => {
    if (buf[i] === QUOTE) {
      const close = buf.indexOf(QUOTE, i + 1);
      if (close < 0 || close + 1 >= length || buf[close + 1] === QUOTE) return false;
      content = hasContent(buf, i + 1, close);
      at = column === email && atWithin(buf, i + 1, close);
      state = State.QuotedQuote;
      jumped = close + 1;
      return true;
    }
    // An unquoted field, read in one loop: short fields cost less so than a native search per delimiter and line break.
    let hasText = false;
    let hasAt = false;
    // The last column that matters is a name: its first letter is all it has to say.
    const lastName = column === last && isName[column] === 1;
    for (let j = i; j < length; j++) {
      const b = buf[j]!;
      if (lastName && b !== SPACE && b !== TAB && b !== delimiter && b !== LF && b !== CR) {
        hasName = true;
        column = last + 1;
        state = State.Skip;
        jumped = j;
        return true;
      }
      if (b === delimiter || b === LF || (crEnds && b === CR)) {
        content = hasText;
        at = column === email && hasAt;
        state = State.Unquoted;
        jumped = j;
        return true;
      }
      if (b === AT) hasAt = true;
      if (b !== SPACE && b !== TAB) hasText = true;
    }
    return false;
  };

  for await (const buf of chunks) {
    const length = buf.length;
    let i = 0;
    // Cached positions of the next \n, \r and quote at or after i (-1: none left in the chunk); each moves only forward.
    let lf = -2;
    let cr = -2;
    let quote = -2;

    while (i < length) {
      /** What the byte (or the jump) ended: 1 a field, 2 a field and its record, 3 a record past the columns that matter. */
      let ended = 0;
      let endsAt = i;
      if (state >= State.Skip) {
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
        ended = 3;
        endsAt = end;
        i = end + 1;
      } else {
        // A field that ends in this chunk is read with indexOf, not byte by byte (most do).
        if (state === State.FieldStart && jumpField(buf, i, length)) {
          i = jumped;
          continue;
        }
        const b = buf[i]!;
        if (b === AT) at = true;
        const lineEnd = b === LF || (b === CR && crEnds);
        switch (state) {
          case State.FieldStart:
            if (b === QUOTE) state = State.Quoted;
            else if (b === delimiter) ended = 1;
            else if (lineEnd) ended = 2;
            else {
              state = State.Unquoted;
              if (b !== SPACE && b !== TAB) content = true;
            }
            break;
          case State.Unquoted:
            if (b === delimiter) ended = 1;
            else if (lineEnd) ended = 2;
            else if (b !== SPACE && b !== TAB) content = true;
            break;
          case State.Quoted:
            if (b === QUOTE) state = State.QuotedQuote;
            else if (b !== SPACE && b !== TAB && b !== LF && b !== CR) content = true;
            break;
          case State.QuotedQuote:
            if (b === QUOTE) {
              content = true;
              state = State.Quoted;
            } else if (b === delimiter) ended = 1;
            else if (lineEnd) ended = 2;
            else {
              state = State.Unquoted;
              if (b !== SPACE && b !== TAB) content = true;
            }
            break;
        }
        i++;
        if (ended === 0) continue;
      }
      if (ended !== 3) {
        if (column === email) hasEmail = content && at;
        else if (column <= last && isName[column] === 1 && content) hasName = true;
        column++;
        content = false;
        at = false;
        state = State.FieldStart;
      }
      if (ended >= 2) {
        if (header) header = false;
        else if (column > last && hasEmail && !hasName && rows++ === 0) firstOffset = recordStart;
        column = 0;
        hasEmail = false;
        hasName = false;
        recordStart = offset + endsAt + 1;
        state = State.FieldStart;
      }
      // The columns that matter are read: the rest of the record is jumped over.
      if (column > last) state = State.Skip;
    }
    prev = buf[length - 1] ?? prev;
    offset += length;
  }
  // A last line without a line break.
  if (state !== State.FieldStart || column > 0) {
    if (state < State.Skip) {
      if (column === email) hasEmail = content && at;
      else if (column <= last && isName[column] === 1 && content) hasName = true;
      column++;
    }
    if (!header && column > last && hasEmail && !hasName && rows++ === 0) firstOffset = recordStart;
  }
  return { rows, firstOffset };
}

/** Some byte of buf[from, to) is not a space or a line break. */
function hasContent(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i];
    if (b !== SPACE && b !== TAB && b !== LF && b !== CR) return true;
  }
  return false;
}

function atWithin(buf: Buffer, from: number, to: number): boolean {
  const at = buf.indexOf(AT, from);
  return at >= 0 && at < to;
}
