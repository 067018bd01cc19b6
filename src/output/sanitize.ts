// Strings from the service or from users' files may carry terminal escape
// sequences (to recolour, hide or rewrite the screen) or formulas (to run in a
// spreadsheet). CLI.md "untrusted text" requires both to be neutralised.

// C0 controls, DEL, C1 controls, and the Unicode bidi/format overrides that can
// make text display differently from what it is.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Makes a string safe to print in a table cell: every control character becomes a visible escape (`\x1b`, `\n`, `\t`). */
export function neutralize(text: string): string {
  return text.replace(UNSAFE, (ch) => {
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
  });
}

/**
 * CSV cells that a spreadsheet would treat as a formula get a leading
 * apostrophe (OWASP "CSV injection"). Numbers stay numbers.
 */
export function spreadsheetSafe(cell: string): string {
  return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell) ? `'${cell}` : cell;
}

export function csvCell(value: string): string {
  const safe = spreadsheetSafe(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
