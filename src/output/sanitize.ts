// Service and file strings may carry terminal escapes or spreadsheet formulas:
// both are neutralised. Controls include C1 (U+009B alone is a CSI to many
// terminals) and the bidi and separator marks that make text display otherwise.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same but the line break: stderr messages of several lines keep their shape. */
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

/** One line safe for a terminal: every control becomes a visible escape (`\x1b`, `\n`, `\u202e`). */
export function neutralize(text: string): string {
  return text.replace(UNSAFE, visibleEscape);
}

export function neutralizeLines(text: string): string {
  return text.replace(UNSAFE_BUT_LINE_BREAK, visibleEscape);
}

/** JSON for a terminal: controls JSON.stringify leaves raw become `\uXXXX`, so it stays valid JSON with the same value. */
export function jsonForTerminal(json: string): string {
  return json.replace(UNSAFE_BUT_LINE_BREAK, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Formula-like CSV cells get a leading apostrophe (OWASP "CSV injection"); numbers stay numbers. */
export function spreadsheetSafe(cell: string): string {
  // One more apostrophe where some precede such a character, so fromSpreadsheetSafe() undoes exactly what was added.
  return /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell) ? `'${cell}` : cell;
}

/** A failures file imported again sends the values of the file it came from. */
export function fromSpreadsheetSafe(cell: string): string {
  return cell.charCodeAt(0) === 0x27 && spreadsheetSafe(cell.slice(1)) === cell ? cell.slice(1) : cell;
}

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
