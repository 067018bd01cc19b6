// The dispatch stage: tasks start in the order they are pushed, never more
// than `concurrency` at once; a task that cannot start makes the producer
// wait (hasRoom); stop() drops the waiting ones and lets the running finish;
// cancel() also aborts the running ones' signal. Tasks here are promises the
// test settles by hand, so every step is deterministic.
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/import/dispatch.js';

interface Task {
  name: string;
  sync?: boolean;
}

function harness(concurrency: number) {
  const started: string[] = [];
  const signals = new Map<string, AbortSignal>();
  const settle = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const errors: unknown[] = [];
  let rooms = 0;
  const dispatcher = new Dispatcher<Task>({
    concurrency,
    work: (task, signal) => {
      started.push(task.name);
      signals.set(task.name, signal);
      if (task.sync) return;
      return new Promise<void>((resolve, reject) => settle.set(task.name, { resolve, reject }));
    },
    onRoom: () => void rooms++,
    onError: (err) => void errors.push(err),
  });
  let finished = false;
  void dispatcher.done.then(() => (finished = true));
  /** Lets the dispatcher's promise callbacks run. */
  const tick = () => new Promise<void>((r) => setImmediate(r));
  return { dispatcher, started, signals, settle, errors, rooms: () => rooms, finished: () => finished, tick };
}

describe('Dispatcher', () => {
  it('starts tasks in push order, at most `concurrency` at once, and the waiting ones in order as slots free', async () => {
    const h = harness(2);
    for (const name of ['a', 'b', 'c', 'd']) h.dispatcher.push({ name });
    expect(h.started).toEqual(['a', 'b']);
    expect(h.dispatcher.inFlight).toBe(2);
    expect(h.dispatcher.hasRoom).toBe(false);
    h.settle.get('b')!.resolve();
    await h.tick();
    expect(h.started).toEqual(['a', 'b', 'c']);
    expect(h.dispatcher.hasRoom).toBe(false);
    h.settle.get('a')!.resolve();
    await h.tick();
    expect(h.started).toEqual(['a', 'b', 'c', 'd']);
    expect(h.dispatcher.hasRoom).toBe(true);
    expect(h.rooms()).toBeGreaterThan(0);
    h.dispatcher.close();
    expect(h.finished()).toBe(false);
    h.settle.get('c')!.resolve();
    h.settle.get('d')!.resolve();
    await h.tick();
    expect(h.finished()).toBe(true);
  });

  it('a task pushed while others wait queues behind them, even when a slot is free', async () => {
    const h = harness(1);
    h.dispatcher.push({ name: 'a' });
    h.dispatcher.push({ name: 'b' });
    h.dispatcher.push({ name: 'c' });
    h.settle.get('a')!.resolve();
    await h.tick();
    expect(h.started).toEqual(['a', 'b']);
    h.settle.get('b')!.resolve();
    await h.tick();
    expect(h.started).toEqual(['a', 'b', 'c']);
  });

  it('a synchronous task takes no slot', () => {
    const h = harness(1);
    h.dispatcher.push({ name: 'a', sync: true });
    h.dispatcher.push({ name: 'b', sync: true });
    h.dispatcher.push({ name: 'c' });
    expect(h.started).toEqual(['a', 'b', 'c']);
    expect(h.dispatcher.inFlight).toBe(1);
  });

  it('stop(): the waiting tasks never start, the running ones finish, then done resolves; later pushes are ignored', async () => {
    const h = harness(1);
    h.dispatcher.push({ name: 'a' });
    h.dispatcher.push({ name: 'b' });
    h.dispatcher.stop();
    h.dispatcher.push({ name: 'c' });
    expect(h.signals.get('a')!.aborted).toBe(false);
    await h.tick();
    expect(h.finished()).toBe(false);
    h.settle.get('a')!.resolve();
    await h.tick();
    expect(h.finished()).toBe(true);
    expect(h.started).toEqual(['a']);
  });

  it('cancel(): aborts the signal of the running tasks and starts nothing more', async () => {
    const h = harness(2);
    h.dispatcher.push({ name: 'a' });
    h.dispatcher.push({ name: 'b' });
    h.dispatcher.push({ name: 'c' });
    h.dispatcher.cancel();
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
    const h = harness(1);
    h.dispatcher.push({ name: 'a' });
    h.dispatcher.push({ name: 'b' });
    h.settle.get('a')!.reject(new Error('boom'));
    await h.tick();
    expect((h.errors[0] as Error).message).toBe('boom');
    expect(h.started).toEqual(['a', 'b']);
  });

  it('done resolves at close() when nothing was ever pushed', async () => {
    const h = harness(4);
    h.dispatcher.close();
    await h.tick();
    expect(h.finished()).toBe(true);
  });
});
