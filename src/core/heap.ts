// Long imports and page walks allocate fast and hold little: the heap is kept
// at its working size for them. This sets process-wide V8 flags, so nothing
// calls it when merely loaded: the process entry (main() in src/cli.ts) hands
// this module on as `ctx.heap`, which the import and the walk use; in-process
// runs (tests) go without.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8 writes an error for a flag it does not know straight to stderr, past
// src/output/edges.ts. These flags are set only on the Node lines CI runs the
// import on (.ci/run), whose V8s know them; on another line the heap is left
// to V8's defaults, and test/core/heap.test.ts fails until this list and the
// V8 flags are checked again.
const flagsKnown = /^(22|24|26)\./.test(process.versions.node);
function setV8Flag(flag: string): boolean {
  if (flagsKnown) setFlagsFromString(flag);
  return flagsKnown;
}

let collector: (() => void) | undefined;

/** The process entry's hook to this module (ctx.heap); in-process runs (tests) have none. */
export type HeapHook = () => Promise<{ boundedHeap: typeof boundedHeap }>;

/**
 * For the import and the page walk: the young generation may grow to
 * `youngBytes` (fewer scavenges), then stops growing, and a full collection
 * runs after every `workBetweenCollections` units of work (rows, pages).
 * Left alone, V8 answers a sustained allocation rate by growing the young
 * generation and letting old-generation garbage pile up, so peak memory grew
 * with the length of the run although the live data did not (bench/README.md).
 * Returns a function to call with the work done since its last call.
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
