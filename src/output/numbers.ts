// Counts are grouped (`5,000`) for a person at a terminal, plain digits in a pipe
// or file, where awk and grep read them. Each stream decides for itself, so
// `> out.txt` still groups the counts people read on stderr.

export interface DisplayStyle {
  count(n: number): string;
  /** Room for drawings (bars) that a pipe would only have to parse around. */
  terminal: boolean;
}

const grouped = (n: number): string => n.toLocaleString('en-US');
const plain = (n: number): string => String(n);

export const PLAIN_STYLE: DisplayStyle = { count: plain, terminal: false };
export const TERMINAL_STYLE: DisplayStyle = { count: grouped, terminal: true };

export function styleFor(isTTY: boolean): DisplayStyle {
  return isTTY ? TERMINAL_STYLE : PLAIN_STYLE;
}

export function countFor(isTTY: boolean): (n: number) => string {
  return styleFor(isTTY).count;
}
