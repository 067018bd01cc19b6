// How many keep-alive connections a client keeps, decided here and nowhere
// else: a command with requests in flight at once (a walk's pages, an
// import's batches) needs a connection for each, and more would sit idle.
// A leaf module with nothing to load: command definitions read the default.

/** Keep-alive connections of a client unless it asks for more. */
export const DEFAULT_CONNECTIONS = 8;

/**
 * Pages in flight at once in a walk (`--all`, `api --paginate`) unless
 * --concurrency says otherwise: as many as the pool has connections. With 50
 * ms of latency per request, 8 gave about 4.8× the speed of sequential pages
 * and 6 about 3.3–4× (bench/unsubscribes); memory is the same either way,
 * since a page is held only until written. Under a rate limit the walk is
 * paced whatever the number (CLI.md "flow control").
 */
export const WALK_CONCURRENCY = DEFAULT_CONNECTIONS;

/** The pool for `concurrency` requests in flight (ctx.api's options, or ApiClient.paginate before the first request). */
export function poolFor(concurrency: number): { connections: number } {
  return { connections: Math.max(DEFAULT_CONNECTIONS, concurrency) };
}
