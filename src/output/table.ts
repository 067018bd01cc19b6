// The table printer for a terminal (CLI.md "-o table"): a bordered
// cli-table3 table sized to the terminal. Its cells arrive as display text
// (render.ts neutralised and formatted them); what is decided here is how
// each gives way when the terminal is narrow:
// - an id (a UUID, with or without dashes) and a header word are never
//   broken: they set the least width of their column;
// - a column the command marks `fixed` (ids, dates, addresses people copy)
//   keeps its values whole, wrapping only at spaces, and only once every
//   other column has given all it can;
// - free text (words with spaces: names, subjects) is shortened to one line
//   with … rather than wrapped over several;
// - one long word that is not an id (a URL) wraps onto more lines, cut at
//   the column's edge: every character stays, so it can still be copied.
// A table whose least widths are wider than the terminal is drawn at them:
// the terminal wraps its lines, and no id is broken by us.
import type { DisplayStyle } from './numbers.js';

export interface Column {
  /** Dotted path into the record, e.g. `Properties.Subject`. */
  key: string;
  header?: string;
  /**
   * Turns the value into display text (tables only; JSON and CSV keep the
   * value). Counts in it go through `text.count`: the renderer decides
   * whether they are grouped (CLI.md "numbers").
   */
  format?: (value: unknown, record: Record<string, unknown>, text: DisplayStyle) => string;
  /** Never shortened to fit the terminal: values people copy (ids, addresses, dates) stay whole. */
  fixed?: boolean;
  /** Computed from the record (a rate): shown in the table, never what --fields picks for its key. */
  derived?: boolean;
}

/** cli-table3's padding: one space each side of a cell's text. */
export const CELL_PADDING = 2;

/** Free text is shortened to no fewer characters than this (the … included). */
const SHORTEST_FREE_TEXT = 4;

/** A long word that is not an id wraps in pieces of no fewer characters than this. */
const SHORTEST_WRAPPED_WORD = 6;

/** An id as the service issues it: a UUID, with or without dashes (CLI.md "identifiers"). */
const ID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
const longest = (items: string[]): number => items.reduce((n, s) => Math.max(n, s.length), 0);
const lines = (text: string): string[] => text.split('\n');
const isFreeText = (text: string): boolean => /\S\s+\S/.test(text);

/**
 * The least text width a cell may have, in two steps of need: `strict` keeps
 * a fixed column's values on their lines; relaxed, they may wrap at spaces.
 */
function leastWidth(text: string, column: Column, strict: boolean): number {
  if (text === '') return 0;
  const ids = longest(words(text).filter((w) => ID.test(w)));
  if (column.fixed) return strict ? longest(lines(text)) : longest(words(text));
  if (isFreeText(text)) return Math.max(ids, Math.min(SHORTEST_FREE_TEXT, longest(lines(text))));
  return Math.max(ids, Math.min(SHORTEST_WRAPPED_WORD, text.length));
}

/**
 * Column widths (with padding) that fit the terminal, the widest shrunk first,
 * none below the least width of its header's words and its cells. `forStream`:
 * the widths are fixed by the first chunk of a stream, so room left on the
 * terminal is shared out (each column up to half as wide again) for longer values later.
 */
export function fitWidths(columns: Column[], cells: string[][], terminalWidth?: number, forStream = false): number[] {
  const header = (i: number) => columns[i]!.header ?? columns[i]!.key;
  const widths = columns.map((_, i) => Math.max(longest(lines(header(i))), ...cells.map((r) => longest(lines(r[i]!)))) + CELL_PADDING);
  if (!terminalWidth) return widths;
  const budget = terminalWidth - (columns.length + 1);
  if (forStream) {
    const caps = widths.map((w, i) => (columns[i]!.fixed ? w : w + Math.max(4, Math.ceil(w / 2))));
    let spare = budget - widths.reduce((a, b) => a + b, 0);
    while (spare > 0 && widths.some((w, i) => w < caps[i]!)) {
      for (let i = 0; i < widths.length && spare > 0; i++) {
        if (widths[i]! < caps[i]!) {
          widths[i]!++;
          spare--;
        }
      }
    }
  }
  for (const strict of [true, false]) {
    const least = columns.map((c, i) => Math.max(longest(words(header(i))), ...cells.map((r) => leastWidth(r[i]!, c, strict))) + CELL_PADDING);
    while (widths.reduce((a, b) => a + b, 0) > budget) {
      const widest = widths.reduce((best, w, i) => (w > least[i]! && (best < 0 || w > widths[best]!) ? i : best), -1);
      if (widest < 0) break;
      widths[widest]!--;
    }
  }
  return widths;
}

/** The text on one line of at most `width` characters, ending in … when it was longer. */
export function shorten(text: string, width: number): string {
  if (width < 1 || text.length <= width) return text;
  return `${text.slice(0, Math.max(0, width - 1)).trimEnd()}…`;
}

/**
 * The text in lines of at most `width` characters: broken at spaces where it
 * can be, and inside a word only when the word alone is wider than that.
 */
export function wrapCell(text: string, width: number): string {
  if (width < 1) return text;
  const out: string[] = [];
  for (const line of lines(text)) {
    if (line.length <= width) {
      out.push(line);
      continue;
    }
    let current = '';
    for (const word of line.split(/(?<= )/)) {
      if (current.length + word.trimEnd().length <= width) {
        current += word;
        continue;
      }
      if (current) out.push(current.trimEnd());
      current = word;
      while (current.trimEnd().length > width) {
        out.push(current.slice(0, width));
        current = current.slice(width);
      }
    }
    if (current.trimEnd() || !out.length) out.push(current.trimEnd());
  }
  return out.join('\n');
}

/** A cell's text in a column `width` wide (padding included), as the rules at the top say. */
export function fitCell(text: string, column: Column, width: number): string {
  const room = width - CELL_PADDING;
  if (longest(lines(text)) <= room) return text;
  if (!column.fixed && isFreeText(text) && !words(text).some((w) => ID.test(w))) return lines(text).map((l) => shorten(l, room)).join('\n');
  return wrapCell(text, room);
}

export interface DrawOptions {
  /** The header's cells, already painted (or undefined: no header). */
  head?: string[];
  widths: number[];
  /** Without the top border (a later chunk of a stream). */
  top: boolean;
  /** Holds the bottom border back (returned) for the end of a stream. */
  stream: boolean;
}

/** The table's lines as one text, and its bottom border. */
export async function drawTable(cells: string[][], columns: Column[], o: DrawOptions): Promise<{ text: string; bottom: string }> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({ head: o.head ?? [], colWidths: o.widths, wordWrap: false, style: { head: [], border: [] } });
  for (const r of cells) table.push(r.map((cell, i) => fitCell(cell, columns[i]!, o.widths[i]!)));
  // cli-table3 rules a line between every two rows; like gh and stripe, only the header is ruled off.
  const drawn = table.toString().split('\n');
  const headerRule = o.head ? drawn.findIndex((l) => l.startsWith('├')) : -1;
  const kept = drawn.filter((l, i) => !l.startsWith('├') || i === headerRule);
  if (!o.top) kept.shift();
  const bottom = kept.pop()!;
  if (!o.stream) kept.push(bottom);
  return { text: `${kept.join('\n')}\n`, bottom };
}
