import { describe, expect, it } from 'vitest';
import { createOutput, type Output } from '../../src/output/render.js';
import { wrapCell } from '../../src/output/table.js';
import { BrokenPipe } from '../../src/output/edges.js';
import { csvCell, jsonForTerminal, neutralize, neutralizeLines, spreadsheetSafe } from '../../src/output/sanitize.js';
import type { OutputFormat, PeopleOut } from '../../src/output/result.js';
import type { Shape } from '../../src/output/shape.js';

function capture(format: OutputFormat, isTTY = false, shape?: Shape): { out: Output; text: () => string } {
  let text = '';
  const out = createOutput({ format, isTTY, color: false, columns: 100, shape, stdout: { write: (s) => ((text += String(s)), true) } });
  return { out, text: () => text };
}

const rows = [
  { EmailAddress: 'ada@example.com', Name: 'Ada', Count: 3, Nested: { a: 1 } },
  { EmailAddress: 'bo@example.com', Name: 'Bo\tTab', Count: '4', Nested: null },
];

describe('renderer', () => {
  it('text with no data is the people view in every format, written as it comes, unchanged', async () => {
    for (const format of ['table', 'json', 'ndjson', 'csv'] as const) {
      const { out, text } = capture(format);
      async function* chunks() {
        yield 'email,Line\r\n';
        yield '=bad,2\r\n';
      }
      await out.render({ people: async (_, o) => { for await (const chunk of chunks()) await o.text(chunk); } });
      expect(text()).toBe('email,Line\r\n=bad,2\r\n');
    }
  });

  it("people get the command's view of the data cut by --limit; machine formats and --fields get the data", async () => {
    const people = async (data: unknown, o: PeopleOut) => o.table((data as { Name: string }[]).flatMap((r) => [{ Line: `${r.Name}!` }, { Line: `${r.Name}?` }]));
    const table = capture('table', false, { limit: 1 });
    await table.out.render({ data: rows, people });
    expect(table.text()).toBe('Ada!\nAda?\n');
    const csv = capture('csv', false, { limit: 1 });
    await csv.out.render({ data: rows, people, columns: ['Name'] });
    expect(csv.text().split('\r\n')[0]).toBe('EmailAddress,Name,Count,Nested.a');
    const fields = capture('table', false, { fields: ['Name'] });
    await fields.out.render({ data: rows, people });
    expect(fields.text()).toBe('Ada\nBo\\tTab\n');
  });

  it('json prints the service data unchanged', async () => {
    const { out, text } = capture('json');
    await out.print(rows);
    expect(JSON.parse(text())).toEqual(rows);
  });

  it('ndjson prints one record a line', async () => {
    const { out, text } = capture('ndjson');
    await out.print(rows);
    const lines = text().trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(rows);
  });

  it('csv has a header of field names and escapes', async () => {
    const { out, text } = capture('csv');
    await out.print([{ A: 'x,y', B: 'say "hi"', C: '=HYPERLINK("http://evil")', D: -5, E: '-5' }]);
    expect(text()).toBe('A,B,C,D,E\r\n"x,y","say ""hi""","\'=HYPERLINK(""http://evil"")",-5,-5\r\n');
  });

  it('table in a pipe is tab-separated without header or borders, and neutralises tabs in cells', async () => {
    const { out, text } = capture('table', false);
    await out.print(rows, ['EmailAddress', 'Name', 'Count']);
    expect(text()).toBe('ada@example.com\tAda\t3\nbo@example.com\tBo\\tTab\t4\n');
  });

  it('table on a terminal is bordered with a header', async () => {
    const { out, text } = capture('table', true);
    await out.print(rows, [{ key: 'EmailAddress', header: 'Email' }, 'Name']);
    expect(text()).toContain('┌');
    expect(text()).toMatch(/│ Email\s+│ Name\s+│/);
    expect(text()).toContain('ada@example.com');
  });

  it('table neutralises escape sequences from the service', async () => {
    const { out, text } = capture('table', true);
    await out.print([{ Name: 'evil\u001b[2J\u001b]0;title\u0007\u009b31m\u202eabc' }]);
    expect(text()).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    expect(text()).toContain('evil\\x1b[2J');
  });

  it('a single record prints as Field/Value pairs', async () => {
    const { out, text } = capture('table', false);
    await out.print({ Recipients: 10, Clicks: 2 });
    expect(text()).toBe('Recipients\t10\nClicks\t2\n');
  });

  it('stream writes one valid JSON array incrementally, and [] when empty', async () => {
    const { out, text } = capture('json');
    const s = out.stream();
    for (const r of rows) await s.write(r);
    await s.end();
    expect(JSON.parse(text())).toEqual(rows);
    const empty = capture('json');
    const e = empty.out.stream();
    await e.end();
    expect(JSON.parse(empty.text())).toEqual([]);
  });

  it('a table on a terminal rules off the header only, not every row', async () => {
    const { out, text } = capture('table', true);
    await out.print(rows, ['EmailAddress', 'Name']);
    const lines = text().trimEnd().split('\n');
    expect(lines.map((l) => l[0])).toEqual(['┌', '│', '├', '│', '│', '└']);
  });

  it('a long stream on a terminal is one table: one top border, one header rule, one bottom border; (no results) when empty', async () => {
    const { out, text } = capture('table', true);
    const s = out.stream(['EmailAddress', 'Name']);
    for (let i = 0; i < 1234; i++) await s.write({ EmailAddress: `p${i}@example.com`, Name: `P ${i}` });
    await s.end();
    const lines = text().trimEnd().split('\n');
    expect(lines[0]![0]).toBe('┌');
    expect(lines.at(-1)![0]).toBe('└');
    expect(lines.filter((l) => l.startsWith('├'))).toHaveLength(1);
    const data = lines.filter((l) => /^│ p\d+@/.test(l));
    expect(data).toHaveLength(1234);
    expect(data.at(-1)).toMatch(/^│ p1233@example\.com\s+│ P 1233\s+│$/);
    // The columns keep one width from the first chunk to the last.
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    const empty = capture('table', true);
    const e = empty.out.stream(['EmailAddress']);
    await e.end();
    expect(empty.text()).toBe('(no results)\n');
  });

  it('stream csv writes the header once', async () => {
    const { out, text } = capture('csv');
    const s = out.stream();
    await s.write({ A: 1 });
    await s.write({ A: 2 });
    await s.end();
    expect(text()).toBe('A\r\n1\r\n2\r\n');
  });
});

describe('formats written to a terminal', () => {
  const hostile = [{ 'Na\u001b[2Jme': 'a\u001b]52;c;QQ==\u0007 \u009b31m \u202eb\u2028c' }];

  it('table headers from the data are neutralised', async () => {
    const { out, text } = capture('table', true);
    await out.print(hostile);
    expect(text()).not.toMatch(/[\u001b\u0007\u009b\u202e\u2028]/);
    expect(text()).toContain('Na\\x1b[2Jme');
  });

  it.each(['json', 'ndjson'] as const)('%s escapes C1, bidi and separator characters inside strings and stays the same data', async (format) => {
    const { out, text } = capture(format, true);
    await out.print(hostile);
    expect(text()).not.toMatch(/[\u001b\u0007\u009b\u202e\u2028]/);
    expect(text()).toContain('\\u009b31m \\u202eb\\u2028c');
    const parsed = format === 'json' ? JSON.parse(text()) : JSON.parse(text().trim());
    expect(parsed).toEqual(format === 'json' ? hostile : hostile[0]);
  });

  it('a JSON stream is escaped the same way', async () => {
    const { out, text } = capture('json', true);
    const s = out.stream();
    await s.write(hostile[0]);
    await s.end();
    expect(text()).not.toMatch(/[\u001b\u009b\u202e]/);
    expect(JSON.parse(text())).toEqual(hostile);
  });

  it('csv cells and headers are neutralised on a terminal and unchanged in a pipe', async () => {
    const tty = capture('csv', true);
    await tty.out.print(hostile);
    expect(tty.text()).not.toMatch(/[\u001b\u0007\u009b\u202e\u2028]/);
    const pipe = capture('csv', false);
    await pipe.out.print(hostile);
    expect(pipe.text()).toBe(`${Object.keys(hostile[0]!)[0]}\r\n${Object.values(hostile[0]!)[0]}\r\n`);
  });

  it('json in a pipe is the data byte for byte as JSON.stringify writes it', async () => {
    const { out, text } = capture('json', false);
    await out.print(hostile);
    expect(text()).toBe(`${JSON.stringify(hostile, null, 2)}\n`);
  });
});

describe('a stdout whose reader went away', () => {
  it('makes the next write reject with BrokenPipe, even one waiting for drain', async () => {
    let closed = false;
    let drain: (() => void) | undefined;
    const stdout = {
      write: () => false,
      once: (_: 'drain', listener: () => void) => void (drain = listener),
      get closed() {
        return closed;
      },
    };
    const out = createOutput({ format: 'ndjson', isTTY: false, color: false, stdout });
    const waiting = out.print({ a: 1 });
    closed = true;
    drain!();
    await expect(waiting).rejects.toBeInstanceOf(BrokenPipe);
    await expect(out.print({ a: 2 })).rejects.toBeInstanceOf(BrokenPipe);
  });
});

describe('sanitisers', () => {
  it('neutralize makes every control character visible', () => {
    expect(neutralize('a\nb\rc\u0000d\u007f')).toBe('a\\nb\\rc\\x00d\\x7f');
  });
  it('neutralizeLines keeps line breaks and nothing else', () => {
    expect(neutralizeLines('a\nb\rc\u001b[2J\u009b\u202e')).toBe('a\nb\\rc\\x1b[2J\\x9b\\u202e');
  });
  it('jsonForTerminal escapes what JSON.stringify leaves raw, and keeps the value', () => {
    const value = { s: 'x\u007f\u0085\u009b\u061c\u200e\u2028\u2029\u202e\u2066' };
    const text = jsonForTerminal(JSON.stringify(value, null, 2));
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(JSON.parse(text)).toEqual(value);
  });
  it('spreadsheetSafe prefixes formulas but keeps numbers', () => {
    expect(spreadsheetSafe('=1+1')).toBe("'=1+1");
    expect(spreadsheetSafe('+49 170')).toBe("'+49 170");
    expect(spreadsheetSafe('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(spreadsheetSafe('-3.5')).toBe('-3.5');
    expect(csvCell('plain')).toBe('plain');
  });
});

describe('table columns marked fixed', () => {
  it('are never shrunk to fit the terminal; free text in the other columns is shortened with …, on one line', async () => {
    let text = '';
    const out = createOutput({ format: 'table', isTTY: true, color: false, columns: 60, stdout: { write: (s) => ((text += String(s)), true) } });
    const id = 'c0000000-0000-4000-8000-000000000001';
    await out.print([{ ID: id, Name: 'A rather long campaign name that cannot fit' }], [{ key: 'ID', fixed: true }, { key: 'Name' }]);
    expect(text).toContain(id);
    const nameCells = text.split('\n').map((l) => l.split('│')[2]?.trim() ?? '').filter(Boolean);
    expect(nameCells).toHaveLength(2);
    expect(nameCells[1]).toMatch(/^A rather long .*…$/);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
  });
});

describe('tables on a narrow terminal (the renderer at a given width)', () => {
  const draw = async (columns: number, rows: Record<string, unknown>[], view: Parameters<Output['print']>[1]) => {
    let text = '';
    const out = createOutput({ format: 'table', isTTY: true, color: false, columns, stdout: { write: (s) => ((text += String(s)), true) } });
    await out.print(rows, view);
    return text.split('\n').filter(Boolean);
  };

  it('at 80 columns never breaks an id, in any column, nor a header word', async () => {
    const ids = ['c0ffee00-1234-4abc-8def-0123456789ab', '0123456789abcdef0123456789abcdef'];
    const rows = ids.map((id) => ({ ListID: id, Title: 'Subscribers who opened anything in the last ninety days', Subscribers: 61005 }));
    const lines = await draw(80, rows, [{ key: 'ListID', header: 'List ID' }, 'Title', { key: 'Subscribers', header: 'Active subscribers' }]);
    for (const id of ids) expect(lines.filter((l) => l.includes(id))).toHaveLength(1);
    expect(lines[1]).toMatch(/│ List ID\s+│ Title\s+│ Active\s+│/);
    expect(lines[2]).toMatch(/│\s+│\s+│ subscribers\s+│/);
    expect(lines.join('\n')).toContain('61,005');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('too wide with every id whole: a Field/Value block per record, no line wider than the terminal', async () => {
    const ids = ['c0ffee00-1234-4abc-8def-0123456789ab', '0123456789abcdef0123456789abcdef'];
    const rows = ids.map((id, i) => ({ ListID: id, SegmentID: ids[1 - i], Title: 'Subscribers who opened anything in the last ninety days', Subscribers: 61005 }));
    const lines = await draw(80, rows, [{ key: 'ListID', header: 'List ID' }, { key: 'SegmentID', header: 'Segment ID' }, 'Title', { key: 'Subscribers', header: 'Active subscribers' }]);
    for (const line of lines) expect(line.length, lines.join('\n')).toBeLessThanOrEqual(80);
    for (const id of ids) expect(lines.filter((l) => l.includes(id))).toHaveLength(2);
    expect(lines.filter((l) => /^│ List ID\s+│ c0ffee00/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('├'))).toHaveLength(1);
    expect(lines.join('\n')).toContain('Subscribers who opened anything in the last ninety days');
  });

  it('breaks a date between its day and its time once the free text has given all it can', async () => {
    const lines = await draw(58, [{ ID: '0123456789abcdef0123456789abcdef', When: '2026-11-20 10:00', Name: 'June news' }], [{ key: 'ID', fixed: true }, { key: 'When', fixed: true }, 'Name']);
    expect(lines.some((l) => l.includes('0123456789abcdef0123456789abcdef'))).toBe(true);
    expect(lines.some((l) => /│ 2026-11-20\s+│/.test(l))).toBe(true);
    expect(lines.some((l) => /│ 10:00\s+│/.test(l))).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(58);
  });

  it('shortens a URL with …, and keeps an ISO date-time whole', async () => {
    const lines = await draw(60, [{ Date: '2024-02-01T10:05:00.000Z', URL: 'https://example.com/welcome/and/a/long/path', IP: '192.0.2.10' }], ['Date', 'URL', 'IP']);
    expect(lines.join('\n')).toContain('2024-02-01T10:05:00.000Z');
    expect(lines.join('\n')).toMatch(/https:\/\/\S*…/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });
});

describe('wrapCell', () => {
  it('breaks at spaces, and inside a word only when the word alone is wider than the column', () => {
    expect(wrapCell('short', 10)).toBe('short');
    expect(wrapCell('one two three four', 9)).toBe('one two\nthree\nfour');
    expect(wrapCell('https://example.com/a/long/path', 10)).toBe('https://ex\nample.com/\na/long/pat\nh');
    expect(wrapCell('a\nb c', 3)).toBe('a\nb c');
    for (const line of wrapCell('x '.repeat(40) + 'y'.repeat(33), 7).split('\n')) expect(line.length).toBeLessThanOrEqual(7);
  });
});

describe('CSV flattens objects and arrays (docs/scripting.md)', () => {
  const csv = async (data: unknown, view?: Parameters<Output['print']>[1]) => {
    const { out, text } = capture('csv');
    await out.print(data, view);
    return text().split('\r\n').filter(Boolean);
  };

  it('an object becomes columns; an array of records rows, the other fields repeated; an empty one a row of empty cells', async () => {
    const lines = await csv([
      { ID: 'a', Query: { From: '2024-01-01', To: '2024-01-31' }, Actions: [{ Event: 'Open' }, { Event: 'Click' }] },
      { ID: 'b', Query: { From: '2024-02-01', To: '2024-02-28' }, Actions: [] },
    ]);
    expect(lines).toEqual(['ID,Query.From,Query.To,Actions.Event', 'a,2024-01-01,2024-01-31,Open', 'a,2024-01-01,2024-01-31,Click', 'b,2024-02-01,2024-02-28,']);
  });

  it("a list's header has the fields of its first records, not only the first's (a check's hint)", async () => {
    expect(await csv([{ check: 'a', status: 'ok' }, { check: 'b', status: 'fail', hint: 'do x' }])).toEqual(['check,status,hint', 'a,ok,', 'b,fail,do x']);
  });

  it('only the first array spreads over rows: another stays one cell, never zipped with it', async () => {
    const lines = await csv([{ Mapping: [{ Column: 'email' }, { Column: 'name' }], Request: { Subscribers: [{ EmailAddress: 'a@example.com' }] } }]);
    expect(lines[0]).toBe('Mapping.Column,Request.Subscribers');
    expect(lines.slice(1)).toEqual(['email,"[{""EmailAddress"":""a@example.com""}]"', 'name,"[{""EmailAddress"":""a@example.com""}]"']);
  });

  it("--fields' collected lists from one array go along row by row; a command's columns are for people, not CSV", async () => {
    expect(await csv([{ Name: 'W', 'Actions.Event': ['Open', 'Click'], 'Actions.Date': ['d1', 'd2'] }])).toEqual(['Name,Actions.Event,Actions.Date', 'W,Open,d1', 'W,Click,d2']);
    expect(await csv({ Title: 'T', Count: 3 }, [{ key: 'Count', header: 'Active' }])).toEqual(['Title,Count', 'T,3']);
  });
});
