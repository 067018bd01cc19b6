// src/output/jq.ts: jq in a worker thread (the bundle the build wrote,
// dist/jq.cjs), checked before anything runs, streamed, stopped by a signal,
// and bounded when an expression needs a whole walk.
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { compileJq, WHOLE_LIST_CHARS } from '../../src/output/jq.js';
import { createOutput } from '../../src/output/render.js';
import { requireBuild } from '../helpers/cli.js';
import { HOSTILE, expectNeutralised } from '../helpers/hostile.js';

beforeAll(() => requireBuild(new URL('../../dist/jq.cjs', import.meta.url)));

/** A write that takes each piece and records it. */
function sink() {
  const pieces: string[] = [];
  return { pieces, text: () => pieces.join(''), write: async (text: string) => void pieces.push(text) };
}

describe('compileJq', () => {
  it.each(['.) | (.', '.[] | select(', '$nope'])('refuses %s as a usage error (exit 2) without running it', async (expression) => {
    const refused = await compileJq(expression).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toMatch(/^--jq: /);
  });

  it('compiles an expression that would run for ever without running it', async () => {
    const filter = await compileJq('last(range(1e11))');
    expect(filter.perRecord).toBe(false);
    expect((await compileJq('.[] | .Name')).perRecord).toBe(true);
  });
});

describe('a run', () => {
  it('prints strings raw and other values as compact JSON, one a line', async () => {
    const out = sink();
    await (await compileJq('.[]')).run(['a', { b: 1 }, [2], null], out.write);
    expect(out.text()).toBe('a\n{"b":1}\n[2]\nnull\n');
  });

  it('streams a large output in pieces, in order, waiting for each write', async () => {
    const out = sink();
    let writing = 0;
    let overlapping = 0;
    const slow = async (text: string) => {
      writing++;
      overlapping = Math.max(overlapping, writing);
      await new Promise((r) => setImmediate(r));
      out.pieces.push(text);
      writing--;
    };
    await (await compileJq('range(200000)')).run(null, slow);
    expect(out.pieces.length).toBeGreaterThan(1);
    expect(overlapping).toBe(1);
    const lines = out.text().split('\n');
    expect(lines).toHaveLength(200001);
    expect(lines[199999]).toBe('199999');
  });

  it('stops at once when its signal aborts, with the signal\'s reason', async () => {
    const filter = await compileJq('last(range(1e11))');
    const controller = new AbortController();
    const running = filter.run(null, sink().write, controller.signal);
    setTimeout(() => controller.abort(new Error('interrupted')), 100);
    await expect(running).rejects.toThrow('interrupted');
    // A new run starts a new worker.
    const out = sink();
    await (await compileJq('1 + 1')).run(null, out.write);
    expect(out.text()).toBe('2\n');
  });

  it('stops when a write fails (stdout closed), with that error', async () => {
    const filter = await compileJq('range(1e9)');
    const closed = new Error('the reader of standard output went away');
    let writes = 0;
    await expect(
      filter.run(null, async () => {
        if (++writes === 2) throw closed;
      }),
    ).rejects.toBe(closed);
  });

  it('a runtime error is exit 1 naming jq\'s error', async () => {
    const failed = await (await compileJq('.a.b')).run(5, sink().write).catch((err: unknown) => err);
    expect(failed).toMatchObject({ exitCode: 1, message: expect.stringMatching(/^--jq: Cannot index number with string \("a"\)$/) });
  });
});

describe('an expression on the whole list of a walk', () => {
  it('runs on every record gathered', async () => {
    const gathering = (await compileJq('length')).gather();
    for (let i = 0; i < 1000; i++) gathering.add({ i });
    const out = sink();
    await gathering.run(out.write);
    expect(out.text()).toBe('1000\n');
  });

  it(`stops past ${WHOLE_LIST_CHARS / 1024 / 1024} MiB of records, naming what streams instead`, async () => {
    const gathering = (await compileJq('map(.x)')).gather();
    const record = { x: 'x'.repeat(1000) };
    let added = 0;
    const stopped = (() => {
      try {
        for (;;) {
          gathering.add(record);
          added++;
        }
      } catch (err) {
        return err as Error & { exitCode: number };
      }
    })();
    expect(added).toBeLessThan(WHOLE_LIST_CHARS / 1000);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.message).toMatch(/^--jq: `map\(\.x\)` needs every record at once, .*`\.\[\] \| …`.*--limit/);
  });
});

describe('through the renderer', () => {
  it('on a terminal, controls in jq\'s raw strings are shown, not obeyed', async () => {
    let written = '';
    const out = createOutput({
      format: 'json',
      stdout: { write: (s) => ((written += String(s)), true) },
      isTTY: true,
      color: false,
      shape: { jq: await compileJq('.[].Name') },
    });
    await out.print([{ Name: HOSTILE }]);
    expect(written).not.toBe('');
    expectNeutralised(written);
  });
});
