// The one stderr writer (src/output/messages.ts): text lines for people, one
// JSON object a line in machine mode, and the edge's filter that makes any
// other line a `notice` so machine mode holds by construction.
import { describe, expect, it } from 'vitest';
import { createMessages, isMachineFormat, machineLines } from '../../src/output/messages.js';

function sink() {
  let text = '';
  return { stream: { write: (s: string | Uint8Array) => ((text += String(s)), true) }, text: () => text };
}

describe('messages', () => {
  it('for people: warnings and debug lines prefixed, the rest as said', () => {
    const out = sink();
    const m = createMessages(out.stream, false);
    m.emit('warning', 'careful');
    m.emit('debug', '> GET /x');
    m.emit('page', 'Page 1 of 3', { page: 1 });
    expect(out.text()).toBe('warning: careful\n[debug] > GET /x\nPage 1 of 3\n');
  });

  it('in machine mode: one object a line with its type, message and fields; redacted; controls shown as visible escapes in the message, as for people', () => {
    const out = sink();
    const m = createMessages(out.stream, true, (t) => t.replace('secret', '***'));
    m.emit('wait', 'waiting 7 s (secret)', { waitMs: 7000, skipped: undefined });
    m.emit('notice', '\nUse it: \u009b31m\n');
    const lines = out.text().trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { type: 'wait', message: 'waiting 7 s (***)', waitMs: 7000 },
      { type: 'notice', message: 'Use it: \\x9b31m' },
    ]);
    expect(out.text()).not.toMatch(/\u009b/);
  });

  it('json and ndjson are machine mode; table and csv are not', () => {
    expect(['json', 'ndjson', 'table', 'csv'].map(isMachineFormat)).toEqual([true, true, false, false]);
  });
});

describe('the machine-mode edge', () => {
  it('passes JSON object lines, wraps any other line as a notice, drops blank ones, and holds a partial line until its end', () => {
    const edge = machineLines();
    expect(edge.filter('{"type":"page","message":"m"}\nplain text\n\n[1,2]\nhalf')).toBe(
      '{"type":"page","message":"m"}\n{"type":"notice","message":"plain text"}\n{"type":"notice","message":"[1,2]"}\n',
    );
    expect(edge.filter(' a line\n')).toBe('{"type":"notice","message":"half a line"}\n');
    edge.filter('no line break');
    expect(edge.flush()).toBe('{"type":"notice","message":"no line break"}\n');
    expect(edge.flush()).toBe('');
  });
});
