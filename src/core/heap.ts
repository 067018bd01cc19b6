// Long streaming walks (`campaigns unsubscribes --all`) allocate fast and
// hold little: a page at a time. Left alone, V8 answers a sustained
// allocation rate by growing its young generation and delaying full
// collections, so peak memory rose with the length of the walk (1.5x from
// 10,000 to 100,000 records in bench/unsubscribes) although the live data did
// not. For such walks we keep the heap at its working size: the young
// generation does not grow past its start size, and a full collection runs
// every few pages (a few ms each, against pages that take tens of ms to arrive).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | undefined;

/** Returns a function that runs a full garbage collection. */
export function compactHeapForStreaming(): () => void {
  if (!collector) {
    setFlagsFromString('--semi-space-growth-factor=1');
    setFlagsFromString('--expose-gc');
    // Exposed to new contexts only once the flag is set.
    collector = runInNewContext('gc') as () => void;
  }
  return collector;
}
