// The send stage: tasks are pulled from an async iterable and start in that
// order, never more than `concurrency` at once; the next task is pulled only
// once the one before has a slot (back-pressure: at most one formed task
// waits); stop() drops the waiting one and lets the running finish; cancel()
// also aborts the running ones' signal. Tasks here are promises the test
// settles by hand, so every step is deterministic.
import { describe, expect, it } from 'vitest';
import { SendLoop } from '../../src/import/dispatch.js';

interface Task {
  name: string;
  sync?: boolean;
}

function harness(concurrency: number, tasks: Task[], options: { fail?: Error } = {}) {
  const started: string[] = [];
  const signals = new Map<string, AbortSignal>();
  const settle = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const errors: unknown[] = [];
  let pulled = 0;
  const loop = new SendLoop<Task>({
    concurrency,
    work: (task, signal) => {
      started.push(task.name);
      signals.set(task.name, signal);
      if (task.sync) return;
      return new Promise<void>((resolve, reject) => settle.set(task.name, { resolve, reject }));
    },
    onError: (err) => void errors.push(err),
  });
  async function* source() {
    for (const task of tasks) {
      pulled++;
      yield task;
    }
    if (options.fail) throw options.fail;
  }
  let finished = false;
  let failure: unknown;
  void loop.run(source()).then(
    () => (finished = true),
    (err: unknown) => ((failure = err), (finished = true)),
  );
  /** Lets the loop's promise callbacks run. */
  const tick = () => new Promise<void>((r) => setImmediate(r));
  return { loop, started, signals, settle, errors, pulled: () => pulled, finished: () => finished, failure: () => failure, tick };
}

const named = (...names: string[]) => names.map((name) => ({ name }));

describe('SendLoop', () => {
  it('starts tasks in order, at most `concurrency` at once, pulling the next only once the one before has a slot', async () => {
    const h = harness(2, named('a', 'b', 'c', 'd'));
    await h.tick();
    expect(h.started).toEqual(['a', 'b']);
    expect(h.loop.inFlight).toBe(2);
    // c is pulled and waits for a slot; d stays unpulled.
    expect(h.pulled()).toBe(3);
    h.settle.get('b')!.resolve();
    await h.tick();
    expect(h.started).toEqual(['a', 'b', 'c']);
    expect(h.pulled()).toBe(4);
    h.settle.get('a')!.resolve();
    await h.tick();
    expect(h.started).toEqual(['a', 'b', 'c', 'd']);
    expect(h.finished()).toBe(false);
    h.settle.get('c')!.resolve();
    h.settle.get('d')!.resolve();
    await h.tick();
    expect(h.finished()).toBe(true);
  });

  it('a synchronous task gives its slot back at once', async () => {
    const h = harness(1, [{ name: 'a', sync: true }, { name: 'b', sync: true }, { name: 'c' }]);
    await h.tick();
    expect(h.started).toEqual(['a', 'b', 'c']);
    expect(h.loop.inFlight).toBe(1);
  });

  it('stop(): the waiting task never starts, nothing more is pulled, the running one finishes, then run() resolves', async () => {
    const h = harness(1, named('a', 'b', 'c'));
    await h.tick();
    expect(h.pulled()).toBe(2);
    h.loop.stop();
    expect(h.signals.get('a')!.aborted).toBe(false);
    await h.tick();
    expect(h.finished()).toBe(false);
    h.settle.get('a')!.resolve();
    await h.tick();
    expect(h.finished()).toBe(true);
    expect(h.started).toEqual(['a']);
    expect(h.pulled()).toBe(2);
  });

  it('cancel(): aborts the signal of the running tasks and starts nothing more', async () => {
    const h = harness(2, named('a', 'b', 'c'));
    await h.tick();
    h.loop.cancel();
    expect(h.signals.get('a')!.aborted).toBe(true);
    expect(h.signals.get('b')!.aborted).toBe(true);
    h.settle.get('a')!.reject(new Error('aborted'));
    h.settle.get('b')!.resolve();
    await h.tick();
    expect(h.finished()).toBe(true);
    expect(h.started).toEqual(['a', 'b']);
    expect(h.errors).toHaveLength(1);
  });

  it('a task that rejects is reported to onError and frees its slot', async () => {
    const h = harness(1, named('a', 'b'));
    await h.tick();
    h.settle.get('a')!.reject(new Error('boom'));
    await h.tick();
    expect((h.errors[0] as Error).message).toBe('boom');
    expect(h.started).toEqual(['a', 'b']);
  });

  it('a failing source: the running tasks finish first, then run() rejects with its error', async () => {
    const h = harness(2, named('a'), { fail: new Error('unclosed quote') });
    await h.tick();
    expect(h.finished()).toBe(false);
    h.settle.get('a')!.resolve();
    await h.tick();
    expect((h.failure() as Error).message).toBe('unclosed quote');
  });

  it('run() resolves at once for a source without tasks', async () => {
    const h = harness(4, []);
    await h.tick();
    expect(h.finished()).toBe(true);
  });
});
