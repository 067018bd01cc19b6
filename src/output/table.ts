// The table printer for a terminal (CLI.md "-o table"): a bordered
// cli-table3 table no wider than the terminal. Its cells arrive as display
// text (render.ts neutralised and formatted them); what is decided here is how
// each gives way when the terminal is narrow, in this order:
// 1. free text (words with spaces: names, subjects, reasons) and URLs are
//    shortened to one line with … (a Field/Value table wraps a URL instead);
// 2. other single words that are not ids or dates (an IP address, a status)
//    wrap onto more lines, cut at the column's edge, every character kept;
// 3. a date breaks between its day and its time, each kept whole; a column
//    the command marks `fixed` (addresses people copy) wraps at its spaces.
// An id (a UUID, with or without dashes), a fixed column's word and a header
// word are never broken.
// A table that still does not fit is drawn a record at a time, one
// Field/Value block each (as psql's expanded display), so no line is wider
// than the terminal and no id or date is cut (drawRecords).
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
  /** Only with --wide in a table (a list id the same on every row); JSON and CSV always have it. */
  wide?: boolean;
  /** A URL wraps, every character kept, rather than shortened: a Field/Value table's values, which have the width. */
  wrapLinks?: boolean;
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

/** A date or date-time as the service writes them (`2024-02-01`, `2024-02-01 10:00:00`, ISO 8601). */
const DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const URL_TEXT = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
const longest = (items: string[]): number => items.reduce((n, s) => Math.max(n, s.length), 0);
const lines = (text: string): string[] => text.split('\n');
const isFreeText = (text: string): boolean => /\S\s+\S/.test(text);
const hasId = (text: string): boolean => words(text).some((w) => ID.test(w));
/** Text that gives way with …: free text and URLs, in a column not marked fixed, with no id in it. */
const shortens = (text: string, column: Column): boolean => !column.fixed && !hasId(text) && !DATE.test(text) && (isFreeText(text) || (!column.wrapLinks && URL_TEXT.test(text)));
/** A date's day and time, each of which stays whole (an ISO date keeps its T on the day's line). */
const dateParts = (text: string): string[] => text.replace(/^(\S{10})([ T])/, (_, day: string, sep: string) => `${day}${sep === 'T' ? 'T' : ''}\n`).split('\n');

/** The steps of giving way (the rules at the top): the least width of a cell at each. */
const STEPS = 3;

function leastWidth(text: string, column: Column, step: number): number {
  if (text === '') return 0;
  const ids = longest(words(text).filter((w) => ID.test(w)));
  if (DATE.test(text)) return step < 2 ? text.length : longest(dateParts(text));
  if (column.fixed) return Math.max(ids, step < 2 ? longest(lines(text)) : longest(words(text)));
  if (shortens(text, column)) return Math.min(SHORTEST_FREE_TEXT, longest(lines(text)));
  // A URL that wraps gives way from the first step: nothing of it is lost.
  const wraps = step >= 1 || (column.wrapLinks && URL_TEXT.test(text));
  return Math.max(ids, wraps ? Math.min(SHORTEST_WRAPPED_WORD, longest(lines(text))) : longest(lines(text)));
}

/** A table's width on the terminal: its columns and their borders. */
export function tableWidth(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + widths.length + 1;
}

/**
 * Column widths (with padding) that fit the terminal, the widest shrunk first,
 * none below the least width of its header's words and its cells at each
 * step. `forStream`: the widths are fixed by the first chunk of a stream, so
 * room left on the terminal is shared out (each column up to half as wide
 * again) for longer values later. Wider than the terminal (tableWidth) when
 * even the last step leaves too much: drawRecords then.
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
  for (let step = 0; step < STEPS; step++) {
    const least = columns.map((c, i) => Math.max(longest(words(header(i))), ...cells.map((r) => leastWidth(r[i]!, c, step))) + CELL_PADDING);
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
  if (DATE.test(text)) return dateParts(text).join('\n');
  if (shortens(text, column)) return lines(text).map((l) => shorten(l, room)).join('\n');
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

/**
 * Records too wide for the terminal as a table: one Field/Value block each,
 * the blocks ruled apart, the value column as wide as the terminal leaves.
 * Same parts as drawTable: `top` false continues a stream, whose bottom is held back.
 */
export async function drawRecords(cells: string[][], columns: Column[], terminalWidth: number, o: Omit<DrawOptions, 'widths' | 'head'> & { paint?: (s: string) => string }): Promise<{ text: string; bottom: string }> {
  const { default: Table } = await import('cli-table3');
  const names = columns.map((c) => c.header ?? c.key);
  const fieldWidth = longest(names.flatMap(lines)) + CELL_PADDING;
  const valueWidth = Math.max(terminalWidth - fieldWidth - 3, SHORTEST_WRAPPED_WORD + CELL_PADDING);
  const blocks = cells.map((row) => {
    const table = new Table({ colWidths: [fieldWidth, valueWidth], wordWrap: false, style: { head: [], border: [] } });
    row.forEach((cell, i) => table.push([o.paint ? o.paint(names[i]!) : names[i]!, fitCell(cell, { ...columns[i]!, wrapLinks: true }, valueWidth)]));
    // Within a block only the blocks' own edges are ruled.
    return table.toString().split('\n').filter((l) => !l.startsWith('├'));
  });
  if (!blocks.length) return { text: '', bottom: '' };
  const bottom = blocks[0]!.at(-1)!;
  const rule = `├${blocks[0]![0]!.slice(1, -1).replace(/┬/g, '┼')}┤`;
  const out: string[] = [];
  blocks.forEach((block, i) => {
    out.push(i === 0 && o.top ? block[0]! : rule, ...block.slice(1, -1));
  });
  if (!o.stream) out.push(bottom);
  return { text: `${out.join('\n')}\n`, bottom };
}
