// The one page walk (CLI.md "--all"), reached through ApiClient.paginate:
// walkRecords() yields a listing's records in order, each once, up to --limit;
// walkPages() under it reads page 1, then keeps `concurrency` pages asked ahead
// and hands them out in page order. The first empty page, or twice page 1's total, ends it.
import type { HeapHook } from './heap.js';
import { Channel } from './limiter.js';

export interface RecordWalk<P, R> {
  /** Fetches one page (1-based), its request sent with this signal (aborted when the walk stops early or fails). */
  fetchPage(pageNumber: number, request: { signal: AbortSignal }): Promise<P>;
  /**
   * The records of a page; undefined when the answer is not a page of a
   * listing at all. Page 1 so: the walk yields nothing and `unpaged` holds
   * it; a later page so ends the walk, as an empty page does.
   */
  records(page: P): readonly R[] | undefined;
  /** How many pages the listing has, as a page reports it. */
  pageCount(page: P): number;
  /** Records in the whole listing, as a page reports it: bounds a runaway walk, and tells when the listing moved. */
  totalRecords?(page: P): number;
  /** Pages in flight at once (≥ 1): the ceiling on requests in flight, and the pool's size (ApiClient.paginate). */
  concurrency: number;
  /** --limit: at most this many records; no page past the one that reaches it is asked for. */
  limit?: number;
  /** --page: read this page alone instead of walking from page 1. */
  page?: number;
  /**
   * A record's identity. With it, once the total changed during the walk (a
   * record added or removed in front shifts the rest by one), a record
   * pushed over a page boundary, which comes again at the start of the next
   * page, is yielded once.
   */
  key?(record: R): string;
  /** Aborts the walk (Ctrl-C, or the reader of stdout went away). */
  signal?: AbortSignal;
  /** Told when the walk stopped at twice page 1's total, with pages still claimed beyond it. */
  onRunaway?(stop: RunawayStop): void;
  /** Told once, when a page reports another total than page 1 did. */
  onTotalChanged?(change: { firstTotal: number; total: number; pageNumber: number }): void;
  /** Process-wide heap tuning (ctx.heap): a walk of every page keeps the heap at its working size. */
  heap?: HeapHook;
}

/** A walk in progress: its records, and what it has read so far. */
export interface RecordWalkRun<P, R> extends AsyncIterable<R> {
  /** Records yielded. */
  readonly records: number;
  /** Pages read. */
  readonly pages: number;
  /** Records skipped as repeats across a page boundary. */
  readonly repeats: number;
  /** The last page read: its number, the page count it reported, and its total when it has one. */
  readonly last: { pageNumber: number; pageCount: number; total?: number } | undefined;
  /** Page 1, when it was not a page of a listing (`records` said so). */
  readonly unpaged: P | undefined;
}

/**
 * The records of a paged listing, in order, each once, up to the limit (see
 * the top of this file). Iterate it once.
 */
export function walkRecords<P, R>(walk: RecordWalk<P, R>): RecordWalkRun<P, R> {
  let records = 0;
  let pages = 0;
  let repeats = 0;
  let last: RecordWalkRun<P, R>['last'];
  let unpaged: P | undefined;
  const limit = walk.limit ?? Number.POSITIVE_INFINITY;

  async function* pagesOf(): AsyncGenerator<{ pageNumber: number; page: P }> {
    if (walk.page === undefined) {
      yield* walkPages<P>({
        fetchPage: (n, signal) => walk.fetchPage(n, { signal }),
        pageCount: (p) => walk.pageCount(p),
        recordCount: (p) => walk.records(p)?.length ?? 0,
        totalRecords: walk.totalRecords ? (p) => walk.totalRecords!(p) : undefined,
        concurrency: walk.concurrency,
        signal: walk.signal,
        onRunaway: walk.onRunaway,
        recordLimit: walk.limit,
      });
      return;
    }
    const controller = new AbortController();
    const stop = () => controller.abort(walk.signal?.reason);
    walk.signal?.addEventListener('abort', stop, { once: true });
    try {
      yield { pageNumber: walk.page, page: await walk.fetchPage(walk.page, { signal: controller.signal }) };
    } finally {
      walk.signal?.removeEventListener('abort', stop);
    }
  }

  async function* run(): AsyncGenerator<R> {
    let firstTotal: number | undefined;
    let moved = false;
    let previous: readonly R[] | undefined;
    const heap = walk.page === undefined ? (await walk.heap?.())?.boundedHeap({ youngBytes: 0, workBetweenCollections: 4 }) : undefined;
    for await (const { pageNumber, page } of pagesOf()) {
      const onPage = walk.records(page);
      if (onPage === undefined) {
        if (pageNumber === 1 || walk.page !== undefined) unpaged = page;
        return;
      }
      pages++;
      const total = walk.totalRecords?.(page);
      last = { pageNumber, pageCount: walk.pageCount(page), total };
      if (total !== undefined) {
        firstTotal ??= total;
        if (total !== firstTotal && !moved) {
          moved = true;
          walk.onTotalChanged?.({ firstTotal, total, pageNumber });
        }
      }
      // Records shift between pages only when the total moves: keys are built
      // only then, from the previous page, kept for it.
      const seen = moved && previous && walk.key ? new Set(previous.map(walk.key)) : undefined;
      for (const record of onPage) {
        if (seen?.has(walk.key!(record))) {
          repeats++;
          continue;
        }
        if (records >= limit) break;
        records++;
        yield record;
      }
      // --limit reached: returning ends the page walk, which cancels the pages in flight.
      if (records >= limit) return;
      previous = onPage;
      heap?.(1);
    }
  }

  return {
    [Symbol.asyncIterator]: () => run(),
    get records() {
      return records;
    },
    get pages() {
      return pages;
    },
    get repeats() {
      return repeats;
    },
    get last() {
      return last;
    },
    get unpaged() {
      return unpaged;
    },
  };
}

export interface PageWalk<P> {
  /** Fetches one page (1-based). The signal aborts when the walk stops early or fails. */
  fetchPage(pageNumber: number, signal: AbortSignal): Promise<P>;
  /** How many pages the walk must cover, as a page reports it. */
  pageCount(page: P): number;
  /** Pages in flight or waiting at once (≥ 1). */
  concurrency: number;
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
  // The window: the pages asked for and not yet handed out, in page order.
  const ahead = new Channel<Promise<P>>();
  let asked = 0;
  const start = (n: number) => {
    const promise = walk.fetchPage(n, controller.signal);
    // A page that fails while an earlier one is awaited is reported when its turn comes; until then it must not count as unhandled.
    promise.catch(() => undefined);
    ahead.push(promise);
    asked++;
  };
  const records = (page: P) => (walk.recordCount ? walk.recordCount(page) : undefined);
  const wanted = walk.recordLimit !== undefined && walk.recordCount ? walk.recordLimit : Number.POSITIVE_INFINITY;
  try {
    let first: P | undefined = await walk.fetchPage(1, controller.signal);
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
      while (next <= Math.min(total, lastNeeded) && asked < Math.max(1, walk.concurrency)) start(next++);
    };
    fill();
    yield { pageNumber: 1, page: first, pageCount: total };
    first = undefined; // not held for the rest of the walk
    if (!asked) return;
    let n = 1;
    for await (const asking of ahead) {
      n++;
      const page = await asking;
      asked--;
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
      if (read >= wanted || !asked) return; // pages still in flight are cancelled below
    }
  } finally {
    walk.signal?.removeEventListener('abort', stopOnAbort);
    if (asked) controller.abort(new Error('page walk stopped'));
  }
}
