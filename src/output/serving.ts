// The edge of a command that runs until it is stopped (a server: `sandbox`,
// `webhooks listen`): its Result's data is rendered (records without end
// while it serves), then the first Ctrl-C or SIGTERM is its normal end (exit
// 0; CLI.md "signals"), and a second one ends the process at once (src/cli.ts).
import { OUTPUT_GRACE_MS } from '../core/interrupts.js';
import { isBrokenPipe } from './edges.js';
import { isRecords } from './format.js';
import type { Output, Rendered } from './render.js';

/** What a command's Result says when it keeps running once its data is out (src/commands/define.ts). */
export interface Serving {
  /**
   * Stops taking work and finishes what it took (a server closed, its state
   * saved); records without end end once what is held of them is given to the renderer.
   */
  stop(): Promise<void>;
  /** The reader of stdout going away does not stop it: its work goes elsewhere too (`webhooks listen --save`). */
  outlivesStdout?: boolean;
}

export interface ServingEdge {
  /** The command's signal: aborted by a signal, or by the reader of stdout going away (its reason a BrokenPipe). */
  signal: AbortSignal;
  /** Takes Ctrl-C and SIGTERM from the default (abort, exit 130) while registered (src/context.ts). */
  onInterrupt(handler: (count: number) => void): () => void;
  /** A line for people on stderr (the logger's notices). */
  note(line: string): void;
}

/** Renders the data, serves until stopped, then stops the command; resolves once it has stopped. */
export async function renderServing(out: Output, result: Rendered & { done?: () => void }, serving: Serving, edge: ServingEdge): Promise<void> {
  const stopped = untilStopped(serving, edge);
  // A pager would hold a server's banner until it stops, and leaving the pager (q) would stop it.
  out.unpaged();
  if (!(result.view?.endless && isRecords(result.data))) {
    try {
      await out.render(result);
    } catch (error) {
      // What it serves stops with its output (a ready line nobody read): nothing is left running.
      await serving.stop();
      throw error;
    }
    result.done?.();
    edge.note('Press Ctrl-C to stop.');
    await stopped;
    return serving.stop();
  }
  // Records stdout has taken: what tells a slow reader from one that never reads.
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
  // What is held is printed while stdout takes it; a stdout that takes nothing for OUTPUT_GRACE_MS is given up on.
  await settledWhileProgressing(rendering, () => taken, OUTPUT_GRACE_MS).catch((error: unknown) => {
    if (!isBrokenPipe(error)) throw error;
  });
  result.done?.();
}

/** Resolves at the first Ctrl-C or SIGTERM, or when the command's signal is aborted (the reader of stdout gone, unless the command outlives it). */
function untilStopped(serving: Serving, { signal, onInterrupt }: ServingEdge): Promise<void> {
  return new Promise((resolve) => {
    let unregister: () => void = () => undefined;
    const finish = () => {
      // The handler goes with the first signal: a second one ends the process at once, exit 130.
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

/** The records, counting each one the renderer asks for (it asks for the next once the last is written). */
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

/**
 * Resolves once `done` settles, or once `progress()` has not changed for
 * `stallMs`: stdout nobody reads must not hold up the end after a signal
 * (CLI.md "signals"), while one that reads, however slowly, is waited for.
 */
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
