import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on a subprocess or on loopback, not on the CPU: two at
    // once even on two cores, where vitest's default (cores - 1) runs one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/helpers/closing-line-reporter.ts'],
  },
});
