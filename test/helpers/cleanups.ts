// Things a test started and must stop, stopped after each test in the reverse
// order of their start, whether the test passed or not.
import { afterEach } from 'vitest';

export interface Cleanups {
  push(...cleanups: (() => Promise<unknown>)[]): void;
}

/** Registers the afterEach that runs them; call once at the top of a test file. */
export function useCleanups(): Cleanups {
  const pending: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    while (pending.length) await pending.pop()!();
  });
  return { push: (...cleanups) => void pending.push(...cleanups) };
}
