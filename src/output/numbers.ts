// How counts read, decided per destination in this one place (CLI.md
// "numbers"): grouped (`5,000`) for a person at a terminal, plain digits
// (`5000`) in a pipe or a file, where `awk`, `cut` and a CI log's grep read
// them. Each stream decides for itself: stdout by whether it is a terminal
// (the renderer), stderr by whether it is one (messages, progress), so
// `email … > out.txt` still groups the counts people read on stderr, and
// `2> err.log` gets plain digits.

/** How numbers read where text goes. */
export interface DisplayStyle {
  /** `5,000` on a terminal; `5000` in a pipe or a file, so `awk` and `cut` can use it. */
  count(n: number): string;
  /** True on a terminal: room for drawings (bars) that a pipe would only have to parse around. */
  terminal: boolean;
}

const grouped = (n: number): string => n.toLocaleString('en-US');
const plain = (n: number): string => String(n);

export const PLAIN_STYLE: DisplayStyle = { count: plain, terminal: false };
export const TERMINAL_STYLE: DisplayStyle = { count: grouped, terminal: true };

/** The style of a stream: a terminal's, or a pipe's and a file's. */
export function styleFor(isTTY: boolean): DisplayStyle {
  return isTTY ? TERMINAL_STYLE : PLAIN_STYLE;
}

/** How a count reads on a stream (`ctx.io.stderrIsTTY` for a message). */
export function countFor(isTTY: boolean): (n: number) => string {
  return styleFor(isTTY).count;
}
