// The V8 flags the program changes while it runs (src/core/undici-lite.ts,
// src/core/heap.ts), set through here so that they can be put back.
//
// Why put them back: V8 refuses a code cache made under other flags than its
// own (src/launch.ts), and a cache is made at the end of a run, after a read
// has set --liftoff-only or an import has tuned the heap. With the flags back
// at their defaults, the cache matches the flags of the next run's start.
//
// node:v8 is fetched when a flag is set, not when this module loads: the
// program's entry exports restoreV8Flags, and loading node:v8 costs a run
// about 1.1 ms (2026-11-23, `require('node:v8')` timed in a fresh process).
type V8 = typeof import('node:v8');

const restores = new Set<string>();

/** Sets `flag` (e.g. `--liftoff-only`), to be undone with `restore`, its V8 default (e.g. `--no-liftoff-only`). */
export function setV8Flag(flag: string, restore: string): void {
  (process.getBuiltinModule('node:v8') as V8).setFlagsFromString(flag);
  restores.add(restore);
}

/** Puts every flag set through setV8Flag back to its default; only once the program has finished running. */
export function restoreV8Flags(): void {
  if (!restores.size) return;
  const { setFlagsFromString } = process.getBuiltinModule('node:v8') as V8;
  for (const restore of restores) setFlagsFromString(restore);
  restores.clear();
}
