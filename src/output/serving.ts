// The edge of a command that runs until stopped (`sandbox`, `webhooks listen`,
// which say so with ctx.serve()): its data is rendered, the first Ctrl-C or
// SIGTERM is its normal end (exit 0), and a second ends the process at once.
import { OUTPUT_GRACE_MS } from '../core/interrupts.js';
import { isBrokenPipe } from './edges.js';
import { isRecords } from './format.js';
import type { Output } from './render.js';
import type { Result } from './result.js';

export interface Serving {
  /** Stops taking work and finishes what it took; records without end end once handed to the renderer. */
  stop(): Promise<void>;
  /** Once a value's data is out (the ready line): what people need to use it, on stderr. */
  ready?(): void;
  /** Stdout's reader going away does not stop it: its work goes elsewhere too (`--save`). */
  outlivesStdout?: boolean;
}

export interface ServingEdge {
  signal: AbortSignal;
  /** Takes Ctrl-C and SIGTERM from the default (abort, exit 130) while registered. */
  onInterrupt(handler: (count: number) => void): () => void;
  note(line: string): void;
}

export async function renderServing(out: Output, result: Result, serving: Serving, edge: ServingEdge): Promise<void> {
  const stopped = untilStopped(serving, edge);
  if (!isRecords(result.data)) {
    try {
      await out.render(result);
    } catch (error) {
      // A ready line nobody read: nothing is left running.
      await serving.stop();
      throw error;
    }
    serving.ready?.();
    edge.note('Press Ctrl-C to stop.');
    await stopped;
    return serving.stop();
  }
  // What tells a slow reader from one that never reads.
  let taken = 0;
  edge.note('Press Ctrl-C to stop.');
  const rendering = out.render({ ...result, data: counted(result.data, () => taken++) });
  // A failing output that is not the reader gone stops the command too, and then ends it.
  const failed = rendering.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => (isBrokenPipe(error) ? new Promise<never>(() => undefined) : error),
  );
  const failure = await Promise.race([stopped.then(() => undefined), failed]);
  await serving.stop();
  if (failure !== undefined) throw failure;
  // A stdout that takes nothing for OUTPUT_GRACE_MS is given up on.
  await settledWhileProgressing(rendering, () => taken, OUTPUT_GRACE_MS).catch((error: unknown) => {
    if (!isBrokenPipe(error)) throw error;
  });
}

/** Resolves at the first Ctrl-C or SIGTERM, or when the command's signal aborts. */
function untilStopped(serving: Serving, { signal, onInterrupt }: ServingEdge): Promise<void> {
  return new Promise((resolve) => {
    let unregister: () => void = () => undefined;
    const finish = () => {
      // A second signal then ends the process at once, exit 130.
      unregister();
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => (isBrokenPipe(signal.reason) && serving.outlivesStdout ? undefined : finish());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    unregister = onInterrupt(finish);
  });
}

/** Counts each record the renderer asks for (it asks once the last is written). */
function counted(records: AsyncIterable<unknown>, onAsked: () => void): AsyncIterable<unknown> {
  return {
    [Symbol.asyncIterator]() {
      const it = records[Symbol.asyncIterator]();
      return {
        next: () => {
          onAsked();
          return it.next();
        },
        return: async (value?: unknown) => (it.return ? it.return(value) : { done: true, value }),
      };
    },
  };
}

/** Resolves when `done` settles or `progress()` stalls for `stallMs`: an unread stdout must not hold up the end after a signal. */
function settledWhileProgressing(done: Promise<unknown>, progress: () => number, stallMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let last = progress();
    const timer = setInterval(() => {
      const now = progress();
      if (now !== last) last = now;
      else finish();
    }, stallMs);
    const finish = () => {
      clearInterval(timer);
      resolve();
    };
    done.then(finish, (error: unknown) => {
      clearInterval(timer);
      reject(error);
    });
  });
}
