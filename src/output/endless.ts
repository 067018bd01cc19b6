// Records without end: what has come is shown before the next is waited for,
// so a terminal draws each burst as a table of its own.
import type { RecordStream } from './format.js';

export async function writeEndless(records: AsyncIterable<unknown>, stream: RecordStream): Promise<void> {
  const it = records[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = it.next();
      if (!(await settlesNow(next))) await stream.flush?.();
      const result = await next;
      if (result.done) {
        finished = true;
        break;
      }
      await stream.write(result.value);
    }
  } finally {
    // A write that failed (the reader went away) tells the source: nothing more is taken.
    if (!finished) await it.return?.();
  }
  await stream.end();
}

/** True when the promise settles before the event loop turns: the source had the record ready. */
function settlesNow(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
}
