// How many keep-alive connections a client keeps: one per request in flight, no more, since more
// would sit idle. A leaf module, so command definitions can read the default.

export const DEFAULT_CONNECTIONS = 8;

/**
 * As many pages in flight as the pool has connections (bench/README.md "Figures behind bounds in
 * src/"). Under a rate limit the walk is paced whatever the number (CLI.md "flow control").
 */
export const WALK_CONCURRENCY = DEFAULT_CONNECTIONS;

export function poolFor(concurrency: number): { connections: number } {
  return { connections: Math.max(DEFAULT_CONNECTIONS, concurrency) };
}
