// The V8 flags the program changes while it runs (src/core/undici-lite.ts,
// src/core/heap.ts), set through here so that they can be put back.
//
// Why put them back: V8 takes a code cache (src/launch.ts) only under the
// flags it was made under. A cache is made at the end of a run, after a read
// has set --liftoff-only or an import has tuned the heap; and a bundle can be
// loaded after that (conf, when `auth login` has checked the key). With the
// flags at their defaults for both, the caches are the next run's.
//
// node:v8 is fetched when a flag is set, not when this module loads: the
// program's entry exports restoreV8Flags, and loading node:v8 costs a run
// about 1.1 ms (2026-11-23, `require('node:v8')` timed in a fresh process).
type V8 = typeof import('node:v8');

/** The flags set, each with what puts it back. */
const set = new Map<string, string>();
const v8 = () => process.getBuiltinModule('node:v8') as V8;

/** Sets `flag` (e.g. `--liftoff-only`), to be undone with `restore`, its V8 default (e.g. `--no-liftoff-only`). */
export function setV8Flag(flag: string, restore: string): void {
  v8().setFlagsFromString(flag);
  set.set(flag, restore);
}

/** Puts every flag set through setV8Flag back to its default; only once the program has finished running. */
export function restoreV8Flags(): void {
  if (!set.size) return;
  for (const restore of set.values()) v8().setFlagsFromString(restore);
  set.clear();
}

/** Runs `compile` with those flags at their defaults, then sets them again: a bundle compiled after a read takes its cache. */
export function withDefaultV8Flags<T>(compile: () => T): T {
  if (!set.size) return compile();
  for (const restore of set.values()) v8().setFlagsFromString(restore);
  try {
    return compile();
  } finally {
    for (const flag of set.keys()) v8().setFlagsFromString(flag);
  }
}
