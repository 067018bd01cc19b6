// How the renderer's text reaches stdout (src/output/stdout-writer.ts): a
// whole list is held and written in large pieces, a stream record by record,
// and a write that stdout pushes back waits for 'drain'.
import { describe, expect, it } from 'vitest';
import { createOutput } from '../../src/output/render.js';

function sink(accept = () => true) {
  const writes: string[] = [];
  let drain: (() => void) | undefined;
  const stdout = {
    write: (s: string | Uint8Array) => (writes.push(String(s)), accept()),
    once: (_: 'drain', listener: () => void) => void (drain = listener),
  };
  return { stdout, writes, drain: () => drain?.() };
}

describe('the writes of the renderer on stdout', () => {
  it('a short list printed whole is one write', async () => {
    const { stdout, writes } = sink();
    await createOutput({ format: 'ndjson', isTTY: false, color: false, stdout }).print([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(writes).toEqual(['{"a":1}\n{"a":2}\n{"a":3}\n']);
  });

  it('a long list printed whole is written in pieces of about 64 KiB, all of it, in order', async () => {
    const { stdout, writes } = sink();
    const records = Array.from({ length: 5000 }, (_, i) => ({ i, pad: 'x'.repeat(100) }));
    await createOutput({ format: 'ndjson', isTTY: false, color: false, stdout }).print(records);
    expect(writes.length).toBeGreaterThan(2);
    expect(writes.slice(0, -1).every((w) => w.length >= 64 * 1024 && w.length < 65 * 1024)).toBe(true);
    expect(writes.join('')).toBe(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  });

  it('a stream writes each record as it comes', async () => {
    const { stdout, writes } = sink();
    const stream = createOutput({ format: 'ndjson', isTTY: false, color: false, stdout }).stream();
    await stream.write({ a: 1 });
    expect(writes).toEqual(['{"a":1}\n']);
    await stream.write({ a: 2 });
    await stream.end();
    expect(writes).toEqual(['{"a":1}\n', '{"a":2}\n']);
  });

  it("a write stdout pushes back resolves only after 'drain'", async () => {
    const { stdout, drain } = sink(() => false);
    let done = false;
    const printing = createOutput({ format: 'json', isTTY: false, color: false, stdout })
      .print({ a: 1 })
      .then(() => void (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    drain();
    await printing;
    expect(done).toBe(true);
  });
});
