// Strings from the service or from users' files may carry terminal escape
// sequences (to recolour, hide or rewrite the screen) or formulas (to run in a
// spreadsheet). CLI.md "untrusted text" requires both to be neutralised.

// C0 controls, DEL, C1 controls (U+009B alone is a CSI to many terminals),
// and the Unicode bidi marks, embeddings, overrides and isolates and the line
// and paragraph separators, which make text display differently from what it is.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, but the line break: stderr messages of several lines keep their shape. */
// eslint-disable-next-line no-control-regex
const UNSAFE_BUT_LINE_BREAK = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visibleEscape(ch: string): string {
  switch (ch) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default: {
      const code = ch.charCodeAt(0);
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    }
  }
}

/**
 * Makes a string safe to print on a terminal as one line: every control
 * character becomes a visible escape (`\x1b`, `\n`, `\t`, `\u202e`), so an
 * escape sequence shows as text (`\x1b[2J`) instead of acting.
 */
export function neutralize(text: string): string {
  return text.replace(UNSAFE, visibleEscape);
}

/** As neutralize(), but line breaks stay line breaks: for messages on stderr, one or more lines. */
export function neutralizeLines(text: string): string {
  return text.replace(UNSAFE_BUT_LINE_BREAK, visibleEscape);
}

/**
 * JSON text for a terminal: the controls JSON.stringify leaves raw (DEL, C1,
 * bidi overrides, line separators) become `\uXXXX` escapes. They can only
 * stand inside strings, so the text stays valid JSON with the same value; the
 * line breaks of pretty-printed JSON are left alone.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(UNSAFE_BUT_LINE_BREAK, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * CSV cells that a spreadsheet would treat as a formula get a leading
 * apostrophe (OWASP "CSV injection"). Numbers stay numbers.
 */
export function spreadsheetSafe(cell: string): string {
  // A cell whose apostrophes come before such a character gets one more, so
  // fromSpreadsheetSafe() can undo exactly what was added ('=x, ''=x and =x stay apart).
  return /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell) ? `'${cell}` : cell;
}

/** The cell spreadsheetSafe() was given: a failures file imported again sends the values of the file it came from. */
export function fromSpreadsheetSafe(cell: string): string {
  return cell.charCodeAt(0) === 0x27 && spreadsheetSafe(cell.slice(1)) === cell ? cell.slice(1) : cell;
}

/** Undoes, in place, the apostrophe spreadsheetSafe() put before cells (a failures file imported again). */
export function unescapeCells(record: string[]): void {
  for (let i = 0; i < record.length; i++) {
    const cell = record[i]!;
    if (cell.charCodeAt(0) === 0x27) record[i] = fromSpreadsheetSafe(cell);
  }
}

export function csvCell(value: string): string {
  const safe = spreadsheetSafe(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
