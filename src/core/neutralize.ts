// Text from the service or users' files may carry terminal escapes: shown as
// visible escapes, never obeyed (CLI.md "untrusted text"). Controls include C1
// (U+009B alone is a CSI to many terminals) and the bidi and separator marks.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same but the line break: stderr messages of several lines keep their shape. */
// eslint-disable-next-line no-control-regex
export const UNSAFE_BUT_LINE_BREAK = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

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
