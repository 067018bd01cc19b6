// Service and file strings may carry terminal escapes or spreadsheet formulas:
// both are neutralised (the escapes in core/neutralize.ts).
import { UNSAFE_BUT_LINE_BREAK } from '../core/neutralize.js';

export { neutralize, neutralizeLines } from '../core/neutralize.js';

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
