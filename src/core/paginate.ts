// Walking a paged listing (Vercel CLI style: an async generator of pages).
// The first page tells how many pages there are; the rest are fetched a few at
// a time and handed out strictly in page order. At most `concurrency` pages
// are in flight or waiting to be consumed, so memory depends on the window,
// never on the number of pages; the next fetch starts before a page is handed
// out, so the network keeps working while the consumer writes.
//
// A walk is bounded whatever the service claims (ENGINEERING.md habit 12,
// CLI.md "--all"): it ends at the first empty page, and a total that keeps
// growing stops it once it has read twice the first page's total.
//
// The pages' requests share one flow control (core/throttle.ts, CLI.md "flow
// control"): paced under the service's rate limit, one shared pause per 429,
// `concurrency` the ceiling on requests in flight.
import { Throttle } from './throttle.js';

export interface PageWalk<P> {
  /**
   * Fetches one page (1-based). The signal aborts when the walk stops early or
   * fails; the request goes through the throttle (RequestOptions.throttle).
   */
  fetchPage(pageNumber: number, signal: AbortSignal, throttle: Throttle): Promise<P>;
  /** How many pages the walk must cover, as a page reports it. */
  pageCount(page: P): number;
  /** Pages in flight or waiting at once (≥ 1); the ceiling on requests in flight. */
  concurrency: number;
  /** The walk's flow control, when the caller already sent a request through it; otherwise one is made. */
  throttle?: Throttle;
  /** --debug sink for the flow control's rate changes. */
  debug?: (line: string) => void;
  /** Aborts the walk (Ctrl-C, or the reader of stdout went away). */
  signal?: AbortSignal;
  /** Records on a page. With it, the walk ends at the first page that has none, whatever the page count says. */
  recordCount?(page: P): number;
  /** Records in the whole listing, as a page reports it. With it, the walk stops once it has read twice what page 1 reported. */
  totalRecords?(page: P): number;
  /** Told when the walk stopped at that limit, with pages still claimed beyond it. */
  onRunaway?(stop: RunawayStop): void;
  /**
   * --limit (CLI.md): the walk wants this many records (needs `recordCount`).
   * No page past the one that reaches it is requested: from page 1's size
   * the walk knows how many pages that takes, and asks for more only when a
   * page comes back short.
   */
  recordLimit?: number;
}

export interface RunawayStop {
  /** Records read, the last page's included. */
  recordsRead: number;
  /** What page 1 said the listing holds. */
  firstTotal: number;
  /** The last page read. */
  pageNumber: number;
  /** Pages the service claimed at that point. */
  pageCount: number;
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
 * yielded (they come back short), up to the first empty one, where it ends.
 */
export async function* walkPages<P>(walk: PageWalk<P>): AsyncGenerator<WalkedPage<P>> {
  const controller = new AbortController();
  const stopOnAbort = () => controller.abort(walk.signal?.reason);
  walk.signal?.addEventListener('abort', stopOnAbort, { once: true });
  const inFlight = new Map<number, Promise<P>>();
  const throttle = walk.throttle ?? new Throttle({ maxInFlight: walk.concurrency, debug: walk.debug });
  const start = (n: number) => {
    const promise = walk.fetchPage(n, controller.signal, throttle);
    // A page that fails while an earlier one is awaited is reported when its turn comes; until then it must not count as unhandled.
    promise.catch(() => undefined);
    inFlight.set(n, promise);
  };
  const records = (page: P) => (walk.recordCount ? walk.recordCount(page) : undefined);
  const wanted = walk.recordLimit !== undefined && walk.recordCount ? walk.recordLimit : Number.POSITIVE_INFINITY;
  try {
    let first: P | undefined = await walk.fetchPage(1, controller.signal, throttle);
    let total = Math.max(1, walk.pageCount(first));
    let read = records(first) ?? 0;
    // An empty first page: nothing more to ask for, whatever the page count says.
    if (records(first) === 0) total = 1;
    // The most a walk reads: twice page 1's total (or its own records, if it claims fewer or nonsense).
    const claimed = walk.totalRecords?.(first);
    const firstTotal = claimed !== undefined && Number.isFinite(claimed) && claimed > 0 ? claimed : 0;
    const limit = claimed === undefined ? Number.POSITIVE_INFINITY : 2 * Math.max(firstTotal, read);
    // The last page the limit needs, as far as page 1's size tells (pages of that size from here on).
    const perPage = Math.max(1, read);
    let lastNeeded = read >= wanted ? 1 : Number.isFinite(wanted) ? Math.ceil(wanted / perPage) : Number.POSITIVE_INFINITY;
    let next = 2;
    const fill = () => {
      while (next <= Math.min(total, lastNeeded) && inFlight.size < Math.max(1, walk.concurrency)) start(next++);
    };
    fill();
    yield { pageNumber: 1, page: first, pageCount: total };
    first = undefined; // not held for the rest of the walk
    for (let n = 2; n <= Math.min(total, lastNeeded); n++) {
      if (!inFlight.has(n)) start(n);
      const page = await inFlight.get(n)!;
      inFlight.delete(n);
      const count = records(page);
      if (count === 0) return; // the first empty page ends the walk
      read += count ?? 0;
      total = Math.max(total, walk.pageCount(page));
      // Short of the limit at the last page it seemed to need (a short page): a few more.
      if (n === lastNeeded && read < wanted) lastNeeded += Math.ceil((wanted - read) / perPage);
      const runaway = read >= limit && n < total;
      if (!runaway) fill();
      yield { pageNumber: n, page, pageCount: total };
      if (runaway) {
        walk.onRunaway?.({ recordsRead: read, firstTotal, pageNumber: n, pageCount: total });
        return;
      }
      if (read >= wanted) return; // pages still in flight are cancelled below

    }
  } finally {
    walk.signal?.removeEventListener('abort', stopOnAbort);
    if (inFlight.size) controller.abort(new Error('page walk stopped'));
  }
}
