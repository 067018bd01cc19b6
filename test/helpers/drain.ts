// Waiting out back-pressure on a stream a test writes to (a request body, an
// answer): one wait per chunk, so the wait must leave no listener behind, or
// Node warns (MaxListenersExceededWarning) and the listeners pile up.
import type { EventEmitter } from 'node:events';

/** Resolves at 'drain', or at 'close' when the other side went away; both listeners removed either way. */
export function drainOrClose(stream: EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}
