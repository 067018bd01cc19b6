// The table printer for a terminal: a bordered table no wider than the terminal.
// When narrow, free text and URLs shorten with …, other words wrap, a date breaks
// between day and time; ids and header words never break. A table that still
// does not fit is drawn a record at a time as Field/Value blocks (drawRecords).
import type { DisplayStyle } from './numbers.js';

export interface Column {
  key: string;
  header?: string;
  /** Display text for tables only; counts go through `text.count` so the renderer decides their grouping. */
  format?: (value: unknown, record: Record<string, unknown>, text: DisplayStyle) => string;
  /** Never shortened: values people copy stay whole. */
  fixed?: boolean;
  /** Only with --wide in a table; JSON and CSV always have it. */
  wide?: boolean;
  /** A URL wraps rather than shortens: a Field/Value table's values have the width. */
  wrapLinks?: boolean;
  /** Computed from the record: never what --fields picks for its key. */
  derived?: boolean;
}

export const CELL_PADDING = 2;

const SHORTEST_FREE_TEXT = 4;

const SHORTEST_WRAPPED_WORD = 6;

const ID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const URL_TEXT = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
const longest = (items: string[]): number => items.reduce((n, s) => Math.max(n, s.length), 0);
const lines = (text: string): string[] => text.split('\n');
const isFreeText = (text: string): boolean => /\S\s+\S/.test(text);
const hasId = (text: string): boolean => words(text).some((w) => ID.test(w));
const shortens = (text: string, column: Column): boolean => !column.fixed && !hasId(text) && !DATE.test(text) && (isFreeText(text) || (!column.wrapLinks && URL_TEXT.test(text)));
const dateParts = (text: string): string[] => text.replace(/^(\S{10})([ T])/, (_, day: string, sep: string) => `${day}${sep === 'T' ? 'T' : ''}\n`).split('\n');

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

export function tableWidth(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + widths.length + 1;
}

/** Column widths that fit the terminal, widest shrunk first; `forStream` shares spare room for later, longer values. */
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

export function shorten(text: string, width: number): string {
  if (width < 1 || text.length <= width) return text;
  return `${text.slice(0, Math.max(0, width - 1)).trimEnd()}…`;
}

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

export function fitCell(text: string, column: Column, width: number): string {
  const room = width - CELL_PADDING;
  if (longest(lines(text)) <= room) return text;
  if (DATE.test(text)) return dateParts(text).join('\n');
  if (shortens(text, column)) return lines(text).map((l) => shorten(l, room)).join('\n');
  return wrapCell(text, room);
}

export interface DrawOptions {
  head?: string[];
  widths: number[];
  top: boolean;
  stream: boolean;
}

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

/** Records too wide for a table: one Field/Value block each; `top` false continues a stream. */
export async function drawRecords(cells: string[][], columns: Column[], terminalWidth: number, o: Omit<DrawOptions, 'widths' | 'head'> & { paint?: (s: string) => string }): Promise<{ text: string; bottom: string }> {
  const { default: Table } = await import('cli-table3');
  const names = columns.map((c) => c.header ?? c.key);
  const fieldWidth = longest(names.flatMap(lines)) + CELL_PADDING;
  const valueWidth = Math.max(terminalWidth - fieldWidth - 3, SHORTEST_WRAPPED_WORD + CELL_PADDING);
  const blocks = cells.map((row) => {
    const table = new Table({ colWidths: [fieldWidth, valueWidth], wordWrap: false, style: { head: [], border: [] } });
    row.forEach((cell, i) => table.push([o.paint ? o.paint(names[i]!) : names[i]!, fitCell(cell, { ...columns[i]!, wrapLinks: true }, valueWidth)]));
    return table.toString().split('\n').filter((l) => !l.startsWith('├'));
  });
  if (!blocks.length) return { text: '', bottom: '' };
  const bottom = blocks[0]!.at(-1)!;
  const rule = `├${blocks[0]![0]!.slice(1, -1).replace(/\u252C/g, '\u253C')}┤`;
  const out: string[] = [];
  blocks.forEach((block, i) => {
    out.push(i === 0 && o.top ? block[0]! : rule, ...block.slice(1, -1));
  });
  if (!o.stream) out.push(bottom);
  return { text: `${out.join('\n')}\n`, bottom };
}
