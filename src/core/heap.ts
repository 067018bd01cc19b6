// Long imports and page walks allocate fast and hold little: the heap is kept at its working
// size for them. The flags are process-wide, so only the process entry hands this on (ctx.heap).
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8 writes an unknown flag's error straight to stderr, so flags are set only on the Node lines
// CI checks; test/core/heap.test.ts fails until a new line is checked.
const flagsKnown = /^(22|24|26)\./.test(process.versions.node);
function setV8Flag(flag: string): boolean {
  if (flagsKnown) setFlagsFromString(flag);
  return flagsKnown;
}

let collector: (() => void) | undefined;

export type HeapHook = () => Promise<{ boundedHeap: typeof boundedHeap }>;

/**
 * Left alone, V8 grows the young generation under sustained allocation and lets old garbage pile
 * up, so peak memory grew with the run (bench/README.md). Call with the work done since last call.
 */
export function boundedHeap(options: { youngBytes: number; workBetweenCollections: number }): (work: number) => void {
  const collect = collector ?? exposeGc();
  let capped = false;
  let since = 0;
  const cap = () => {
    if (capped) return;
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young && young.space_size < options.youngBytes) return;
    capped = true;
    setV8Flag('--semi-space-growth-factor=1');
  };
  cap();
  return (work) => {
    cap();
    since += work;
    if (since >= options.workBetweenCollections) {
      since = 0;
      collect();
    }
  };
}

function exposeGc(): () => void {
  // Exposed to new contexts only once the flag is set; without it, no forced collections.
  collector = setV8Flag('--expose-gc') ? (runInNewContext('gc') as () => void) : () => undefined;
  return collector;
}
