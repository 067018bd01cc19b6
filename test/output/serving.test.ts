// The edge of a command that runs until stopped (src/output/serving.ts): the
// data out, the first interruption is its normal end, the second is not taken,
// the reader of stdout gone stops it unless its work goes elsewhere too, and
// a failing output stops what it serves.
import { describe, expect, it } from 'vitest';
import { InterruptHub } from '../../src/core/interrupts.js';
import { BrokenPipe } from '../../src/output/edges.js';
import { createOutput } from '../../src/output/render.js';
import { renderServing, type ServingEdge } from '../../src/output/serving.js';
import { eventQueue } from '../../src/webhooks/event-queue.js';

function setUp(write: (text: string) => boolean = () => true) {
  let stdout = '';
  const notes: string[] = [];
  const controller = new AbortController();
  const hub = new InterruptHub();
  const out = createOutput({ format: 'ndjson', stdout: { write: (t) => ((stdout += String(t)), write(String(t))) }, isTTY: false, color: false });
  // As ctx.serve() does.
  out.serving();
  const edge: ServingEdge = { signal: controller.signal, onInterrupt: (h) => hub.register(h), note: (l) => notes.push(l) };
  return { out, edge, hub, controller, notes, stdout: () => stdout };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('renderServing', () => {
  it('renders the data, says how to stop, serves until the first interruption, then stops; a second is not taken', async () => {
    const t = setUp();
    const steps: string[] = [];
    const serving = renderServing(t.out, { data: { ready: true } }, { stop: async () => void steps.push('stop'), ready: () => void steps.push('done') }, t.edge);
    await tick();
    expect(t.stdout()).toBe('{"ready":true}\n');
    expect(steps).toEqual(['done']);
    expect(t.notes).toEqual(['Press Ctrl-C to stop.']);
    expect(t.hub.fire().handled).toBe(true);
    await serving;
    expect(steps).toEqual(['done', 'stop']);
    await new Promise((r) => setTimeout(r, 120));
    expect(t.hub.fire().handled).toBe(false);
  });

  it('records without end: printed while it serves, and what is held printed after the stop', async () => {
    const t = setUp();
    const q = eventQueue<number>();
    q.push([1], () => undefined);
    const serving = renderServing(t.out, { data: q.records }, { stop: async () => (q.push([2, 3], () => undefined), q.end()) }, t.edge);
    await tick();
    expect(t.stdout()).toBe('1\n');
    t.hub.fire();
    await serving;
    expect(t.stdout()).toBe('1\n2\n3\n');
  });

  it('the reader of stdout gone stops it, unless its work goes elsewhere too', async () => {
    for (const outlivesStdout of [false, true]) {
      const t = setUp();
      let stopped = false;
      const q = eventQueue<number>();
      const stop = async () => ((stopped = true), q.end());
      const serving = renderServing(t.out, { data: q.records }, { stop, outlivesStdout }, t.edge);
      t.controller.abort(new BrokenPipe());
      await tick();
      expect(stopped, `outlivesStdout: ${outlivesStdout}`).toBe(!outlivesStdout);
      t.hub.fire();
      await serving;
      expect(stopped).toBe(true);
    }
  });

  it('an output that fails for another reason stops what it serves, and ends the command with that error', async () => {
    const t = setUp(() => {
      throw new Error('disk full');
    });
    const q = eventQueue<number>();
    q.push([1], () => undefined);
    let stopped = false;
    await expect(renderServing(t.out, { data: q.records }, { stop: async () => void (stopped = true) }, t.edge)).rejects.toThrow(/disk full/);
    expect(stopped).toBe(true);
  });
});
