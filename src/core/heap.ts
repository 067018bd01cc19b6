// Long streaming walks (`campaigns unsubscribes --all`) allocate fast and
// hold little: a page at a time. Left alone, V8 answers a sustained
// allocation rate by growing its young generation and delaying full
// collections, so peak memory rose with the length of the walk (1.5x from
// 10,000 to 100,000 records in bench/unsubscribes) although the live data did
// not. For such walks we keep the heap at its working size: the young
// generation does not grow past its start size, and a full collection runs
// every few pages (a few ms each, against pages that take tens of ms to arrive).
//
// These set process-wide V8 flags, so nothing calls them when merely loaded:
// the process entry (main() in src/cli.ts) hands this module to commands as
// the optional `ctx.heap` capability, and in-process runs (tests) go without.
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

/** What `ctx.heap` gives a command (src/context.ts): this module's two tunings. */
export interface HeapTuning {
  compactHeapForStreaming(): () => void;
  boundedHeapForImport(options: { semiSpaceBytes: number; rowsBetweenCollections: number }): (rows: number) => void;
}

/** Returns a function that runs a full garbage collection. */
export function compactHeapForStreaming(): () => void {
  setV8Flag('--semi-space-growth-factor=1');
  return collector ?? exposeGc();
}

/**
 * For the import, where speed matters as much as memory: the young generation
 * may grow to `semiSpaceBytes` (fewer scavenges than at its 1 MiB start), then
 * stops growing, and a full collection runs after every `rowsBetweenCollections`
 * rows. Left alone, a million-row import grew the young generation to its
 * 16 MiB default maximum and let old-generation garbage pile up: 113 MB peak
 * RSS against 83 MB at 100,000 rows (1.37×); bounded, 94-99 MB (1.14-1.18×)
 * for about 3 % of the speed (bench/import.bench.mjs).
 * Returns a function to call with the rows of each batch done.
 */
export function boundedHeapForImport(options: { semiSpaceBytes: number; rowsBetweenCollections: number }): (rows: number) => void {
  const collect = collector ?? exposeGc();
  let capped = false;
  let rowsSince = 0;
  return (rows) => {
    if (!capped) {
      const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      if (!young || young.space_size >= options.semiSpaceBytes) {
        capped = true;
        setV8Flag('--semi-space-growth-factor=1');
      }
    }
    rowsSince += rows;
    if (rowsSince >= options.rowsBetweenCollections) {
      rowsSince = 0;
      collect();
    }
  };
}

function exposeGc(): () => void {
  // Exposed to new contexts only once the flag is set; without it, no forced collections.
  collector = setV8Flag('--expose-gc') ? (runInNewContext('gc') as () => void) : () => undefined;
  return collector;
}
