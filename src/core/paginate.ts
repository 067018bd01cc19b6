// Walking a paged listing (Vercel CLI style: an async generator of pages).
// The first page tells how many pages there are; the rest are fetched a few at
// a time and handed out strictly in page order. At most `concurrency` pages
// are in flight or waiting to be consumed, so memory depends on the window,
// never on the number of pages; the next fetch starts before a page is handed
// out, so the network keeps working while the consumer writes.

export interface PageWalk<P> {
  /** Fetches one page (1-based). The signal aborts when the walk stops early or fails. */
  fetchPage(pageNumber: number, signal: AbortSignal): Promise<P>;
  /** How many pages the walk must cover, as a page reports it. */
  pageCount(page: P): number;
  /** Pages in flight or waiting at once (≥ 1). */
  concurrency: number;
  /** Aborts the walk (Ctrl-C). */
  signal?: AbortSignal;
}

export interface WalkedPage<P> {
  pageNumber: number;
  page: P;
  /** The walk's page count after this page (it grows if a later page reports more pages). */
  pageCount: number;
}

/**
 * Yields every page in order. If a page reports more pages than known, the
 * walk extends to them; if it reports fewer, pages already requested are still
 * yielded (they come back short or empty).
 */
export async function* walkPages<P>(walk: PageWalk<P>): AsyncGenerator<WalkedPage<P>> {
  const controller = new AbortController();
  const stopOnAbort = () => controller.abort(walk.signal?.reason);
  walk.signal?.addEventListener('abort', stopOnAbort, { once: true });
  const inFlight = new Map<number, Promise<P>>();
  const start = (n: number) => {
    const promise = walk.fetchPage(n, controller.signal);
    // A page that fails while an earlier one is awaited is reported when its turn comes; until then it must not count as unhandled.
    promise.catch(() => undefined);
    inFlight.set(n, promise);
  };
  try {
    let first: P | undefined = await walk.fetchPage(1, controller.signal);
    let total = Math.max(1, walk.pageCount(first));
    let next = 2;
    const fill = () => {
      while (next <= total && inFlight.size < Math.max(1, walk.concurrency)) start(next++);
    };
    fill();
    yield { pageNumber: 1, page: first, pageCount: total };
    first = undefined; // not held for the rest of the walk
    for (let n = 2; n <= total; n++) {
      if (!inFlight.has(n)) start(n);
      const page = await inFlight.get(n)!;
      inFlight.delete(n);
      total = Math.max(total, walk.pageCount(page));
      fill();
      yield { pageNumber: n, page, pageCount: total };
    }
  } finally {
    walk.signal?.removeEventListener('abort', stopOnAbort);
    if (inFlight.size) controller.abort(new Error('page walk stopped'));
  }
}
