// The pool size, decided in one place (src/core/pool.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTIONS, poolFor, WALK_CONCURRENCY } from '../../src/core/pool.js';

describe('poolFor', () => {
  it('keeps the default connections for fewer requests in flight, and one per request beyond', () => {
    expect(poolFor(1)).toEqual({ connections: DEFAULT_CONNECTIONS });
    expect(poolFor(DEFAULT_CONNECTIONS)).toEqual({ connections: DEFAULT_CONNECTIONS });
    expect(poolFor(DEFAULT_CONNECTIONS + 4)).toEqual({ connections: DEFAULT_CONNECTIONS + 4 });
  });

  it('a walk uses as many pages in flight as the default pool has connections', () => {
    expect(poolFor(WALK_CONCURRENCY).connections).toBe(WALK_CONCURRENCY);
  });
});
