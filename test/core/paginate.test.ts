import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../src/core/http.js';
import { walkPages, walkRecords as walkRecordsThrough, type RecordWalk } from '../../src/core/paginate.js';
import { DEFAULT_CONNECTIONS } from '../../src/core/pool.js';

interface FakePage {
  n: number;
  pages: number;
}

/** Pages whose answers the test releases in any order; records which pages were asked for and how many were outstanding at most. */
function controlledPages(pageCount: (n: number) => number) {
  const pending = new Map<number, { resolve: (p: FakePage) => void; reject: (e: Error) => void }>();
  const asked: number[] = [];
  const aborted: number[] = [];
  let outstanding = 0;
  let maxOutstanding = 0;
  return {
    asked,
    aborted,
    get maxOutstanding() {
      return maxOutstanding;
    },
    pending,
    fetchPage(n: number, signal: AbortSignal): Promise<FakePage> {
      asked.push(n);
      outstanding++;
      maxOutstanding = Math.max(maxOutstanding, outstanding);
      return new Promise<FakePage>((resolve, reject) => {
        signal.addEventListener('abort', () => {
          if (!pending.has(n)) return;
          pending.delete(n);
          aborted.push(n);
          reject(new Error('aborted'));
        });
        pending.set(n, {
          resolve: (p) => {
            outstanding--;
            resolve(p);
          },
          reject,
        });
      });
    },
    release(n: number) {
      pending.get(n)!.resolve({ n, pages: pageCount(n) });
      pending.delete(n);
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('walkPages', () => {
  it('yields pages in order whatever order they are answered in, and keeps at most the window outstanding', async () => {
    const pages = controlledPages(() => 10);
    const seen: number[] = [];
    const walking = (async () => {
      for await (const { pageNumber, page } of walkPages({ fetchPage: (n, s) => pages.fetchPage(n, s), pageCount: (p) => p.pages, concurrency: 3 })) {
        expect(page.n).toBe(pageNumber);
        seen.push(pageNumber);
      }
    })();
    await tick();
    expect(pages.asked).toEqual([1]); // the first page alone tells the count
    pages.release(1);
    await tick();
    expect(pages.asked).toEqual([1, 2, 3, 4]);
    // Answer backwards within the window: nothing is yielded before page 2.
    pages.release(4);
    pages.release(3);
    await tick();
    expect(seen).toEqual([1]);
    expect(pages.asked).toEqual([1, 2, 3, 4]);
    for (let n = 2; n <= 10; n++) {
      if (n === 3 || n === 4) continue; // answered above
      while (!pages.pending.has(n)) await tick();
      pages.release(n);
      await tick();
    }
    await walking;
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pages.maxOutstanding).toBeLessThanOrEqual(3);
  });

  it('extends the walk when a later page reports more pages', async () => {
    const seen: number[] = [];
    const counts = [2, 4, 4, 4];
    for await (const { pageNumber } of walkPages({ fetchPage: async (n) => ({ n, pages: counts[n - 1]! }), pageCount: (p) => p.pages, concurrency: 2 })) seen.push(pageNumber);
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('yields one page for an empty listing', async () => {
    const seen: number[] = [];
    for await (const { pageNumber } of walkPages({ fetchPage: async (n) => ({ n, pages: 0 }), pageCount: (p) => p.pages, concurrency: 4 })) seen.push(pageNumber);
    expect(seen).toEqual([1]);
  });

  it('fails with the error of the first failed page in order, and aborts the pages still in flight', async () => {
    const pages = controlledPages(() => 6);
    const walking = (async () => {
      const seen: number[] = [];
      for await (const { pageNumber } of walkPages({ fetchPage: (n, s) => pages.fetchPage(n, s), pageCount: (p) => p.pages, concurrency: 3 })) seen.push(pageNumber);
      return seen;
    })();
    await tick();
    pages.release(1);
    await tick();
    pages.pending.get(3)!.reject(new Error('page 3 failed'));
    pages.pending.delete(3);
    pages.release(2);
    await expect(walking).rejects.toThrow('page 3 failed');
    expect(pages.aborted.sort()).toEqual([4, 5]);
  });

  it('aborts pages in flight when the consumer stops early', async () => {
    const pages = controlledPages(() => 5);
    const walking = (async () => {
      for await (const { pageNumber } of walkPages({ fetchPage: (n, s) => pages.fetchPage(n, s), pageCount: (p) => p.pages, concurrency: 2 })) {
        if (pageNumber === 1) break;
      }
    })();
    await tick();
    pages.release(1);
    await walking;
    expect(pages.aborted.sort()).toEqual([2, 3]);
  });
  it('ends at the first empty page whatever the page count claims, and asks for nothing past the window', async () => {
    const asked: number[] = [];
    const seen: number[] = [];
    const walk = walkPages({
      fetchPage: async (n) => {
        asked.push(n);
        return { n, pages: 1e12, records: n <= 3 ? 10 : 0 };
      },
      pageCount: (p) => p.pages,
      recordCount: (p) => p.records,
      concurrency: 4,
    });
    for await (const { pageNumber } of walk) seen.push(pageNumber);
    expect(seen).toEqual([1, 2, 3]);
    expect(Math.max(...asked)).toBeLessThanOrEqual(4 + 4);
  });

  it('asks for no second page when the first is empty', async () => {
    const asked: number[] = [];
    const walk = walkPages({
      fetchPage: async (n) => (asked.push(n), { n, pages: 1e12, records: 0 }),
      pageCount: (p) => p.pages,
      recordCount: (p) => p.records,
      concurrency: 8,
    });
    for await (const _ of walk) void _;
    expect(asked).toEqual([1]);
  });

  it('stops once it has read twice the first total when the total keeps growing, and says so', async () => {
    const stops: unknown[] = [];
    const seen: number[] = [];
    const walk = walkPages({
      // Page n claims 30 + 10n records and n + 3 pages: always one more page than read so far.
      fetchPage: async (n) => ({ n, pages: n + 3, records: 10, total: 30 + 10 * n }),
      pageCount: (p) => p.pages,
      recordCount: (p) => p.records,
      totalRecords: (p) => p.total,
      onRunaway: (stop) => stops.push(stop),
      concurrency: 2,
    });
    for await (const { pageNumber } of walk) seen.push(pageNumber);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]); // 80 records: twice the 40 page 1 reported
    expect(stops).toEqual([{ recordsRead: 80, firstTotal: 40, pageNumber: 8, pageCount: 11 }]);
  });

  it('reads a listing that grew less than twice its first total to the end, without a warning', async () => {
    const stops: unknown[] = [];
    const seen: number[] = [];
    const walk = walkPages({
      fetchPage: async (n) => ({ n, pages: n === 1 ? 3 : 5, records: 10, total: n === 1 ? 30 : 50 }),
      pageCount: (p) => p.pages,
      recordCount: (p) => p.records,
      totalRecords: (p) => p.total,
      onRunaway: (stop) => stops.push(stop),
      concurrency: 3,
    });
    for await (const { pageNumber } of walk) seen.push(pageNumber);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(stops).toEqual([]);
  });
  it('a first total that is no number bounds the walk by twice the records of page 1', async () => {
    const seen: number[] = [];
    const walk = walkPages({
      fetchPage: async (n) => ({ n, pages: n + 1, records: 10, total: Number.NaN }),
      pageCount: (p) => p.pages,
      recordCount: (p) => p.records,
      totalRecords: (p) => p.total,
      concurrency: 2,
    });
    for await (const { pageNumber } of walk) seen.push(pageNumber);
    expect(seen).toEqual([1, 2]);
  });
});

describe('walkPages with a record limit (--limit)', () => {
  /** Pages of `size` records out of `total`, answered at once; records which pages were asked for. */
  function sizedPages(total: number, size: number, short?: { page: number; records: number }) {
    const asked: number[] = [];
    return {
      asked,
      fetchPage: async (n: number) => {
        asked.push(n);
        const records = short?.page === n ? short.records : Math.max(0, Math.min(size, total - (n - 1) * size));
        return { records, pages: Math.ceil(total / size) };
      },
    };
  }

  it('asks for no page past the one that reaches the limit, even with a wide window', async () => {
    const pages = sizedPages(1000, 10);
    const seen: number[] = [];
    for await (const { pageNumber } of walkPages({ fetchPage: pages.fetchPage, pageCount: (p) => p.pages, recordCount: (p) => p.records, concurrency: 8, recordLimit: 25 })) {
      seen.push(pageNumber);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(pages.asked.sort((a, b) => a - b)).toEqual([1, 2, 3]);
  });

  it('a limit within the first page asks for no other page', async () => {
    const pages = sizedPages(1000, 10);
    for await (const _ of walkPages({ fetchPage: pages.fetchPage, pageCount: (p) => p.pages, recordCount: (p) => p.records, concurrency: 8, recordLimit: 10 })) void _;
    expect(pages.asked).toEqual([1]);
  });

  it('a short page makes it ask for one more, no further', async () => {
    const pages = sizedPages(1000, 10, { page: 2, records: 4 });
    for await (const _ of walkPages({ fetchPage: pages.fetchPage, pageCount: (p) => p.pages, recordCount: (p) => p.records, concurrency: 8, recordLimit: 25 })) void _;
    expect(pages.asked.sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
  });

  it('pages in flight beyond the limit are cancelled when the consumer stops', async () => {
    const pages = controlledPages(() => 10);
    const walking = (async () => {
      for await (const { pageNumber } of walkPages({ fetchPage: (n, s) => pages.fetchPage(n, s), pageCount: (p) => p.pages, concurrency: 4 })) {
        if (pageNumber === 2) break;
      }
    })();
    pages.release(1);
    await tick();
    expect(pages.asked).toEqual([1, 2, 3, 4, 5]);
    pages.release(2);
    await walking;
    // Page 6 started as page 2 was handed out (the window refills before a yield); all four stop.
    expect(pages.aborted.sort()).toEqual([3, 4, 5, 6]);
  });
});

describe('walkRecords: the one page walk (issue 20)', () => {
  interface Listing {
    Results: string[];
    NumberOfPages: number;
    TotalNumberOfRecords: number;
  }
  /** A listing of `records(request)` (the listing as it stands at each request), `size` a page. */
  function listing(size: number, records: (request: number) => string[], extra: Partial<RecordWalk<Listing, string>> = {}) {
    const asked: number[] = [];
    const walk: RecordWalk<Listing, string> = {
      fetchPage: async (n) => {
        const all = records(asked.length);
        asked.push(n);
        return { Results: all.slice((n - 1) * size, n * size), NumberOfPages: Math.ceil(all.length / size), TotalNumberOfRecords: all.length };
      },
      records: (p) => p.Results,
      pageCount: (p) => p.NumberOfPages,
      totalRecords: (p) => p.TotalNumberOfRecords,
      concurrency: 3,
      ...extra,
    };
    return { asked, walk };
  }
  const walkRecords = <P, R>(walk: RecordWalk<P, R>) => walkRecordsThrough(walk);
  const names = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `r${from + i}`);
  const collect = async <R>(iterable: AsyncIterable<R>) => {
    const out: R[] = [];
    for await (const r of iterable) out.push(r);
    return out;
  };

  it('yields every record in page order and counts pages and records', async () => {
    const l = listing(10, () => names(35));
    const walk = walkRecords(l.walk);
    expect(await collect(walk)).toEqual(names(35));
    expect([walk.records, walk.pages, walk.repeats]).toEqual([35, 4, 0]);
    expect(walk.last).toEqual({ pageNumber: 4, pageCount: 4, total: 35 });
  });

  it('owns --limit: exactly n records, and no page past the one that reaches n', async () => {
    const l = listing(10, () => names(1000), { limit: 25, concurrency: 8 });
    expect(await collect(walkRecords(l.walk))).toEqual(names(25));
    expect(l.asked.sort((a, b) => a - b)).toEqual([1, 2, 3]);
  });

  it('when the total moves during the walk, a record pushed over a page boundary is yielded once, and it is told once', async () => {
    const before = names(25, 1);
    const after = ['r0', ...before];
    const changes: unknown[] = [];
    const l = listing(10, (request) => (request === 0 ? before : after), { concurrency: 1, key: (r) => r, onTotalChanged: (c) => changes.push(c) });
    const walk = walkRecords(l.walk);
    expect(await collect(walk)).toEqual(before);
    expect(walk.repeats).toBe(1);
    expect(changes).toEqual([{ firstTotal: 25, total: 26, pageNumber: 2 }]);
  });

  it('--page n reads that page alone', async () => {
    const l = listing(10, () => names(35), { page: 3 });
    const walk = walkRecords(l.walk);
    expect(await collect(walk)).toEqual(names(10, 20));
    expect(l.asked).toEqual([3]);
    expect(walk.last).toEqual({ pageNumber: 3, pageCount: 4, total: 35 });
  });

  it('a walk of every page bounds the heap once and tells it each page; --page n leaves it alone', async () => {
    const bounded: unknown[] = [];
    const told: number[] = [];
    const heap = async () => ({ boundedHeap: (options: unknown) => (bounded.push(options), (n: number) => void told.push(n)) });
    expect(await collect(walkRecords(listing(10, () => names(35), { heap }).walk))).toEqual(names(35));
    expect(bounded).toHaveLength(1);
    expect(told).toEqual([1, 1, 1, 1]);
    await collect(walkRecords(listing(10, () => names(35), { heap, page: 2 }).walk));
    expect(bounded).toHaveLength(1);
  });

  it('an answer that is not a page of a listing yields nothing and is kept as it came', async () => {
    const l = listing(10, () => names(5), { records: () => undefined });
    const walk = walkRecords(l.walk);
    expect(await collect(walk)).toEqual([]);
    expect(walk.unpaged).toMatchObject({ Results: names(5) });
    expect(l.asked).toEqual([1]);
  });
});

describe('ApiClient.paginate: the walk through the client', () => {
  it('sizes the pool to the pages in flight: --concurrency beyond the default pool of connections is on the wire at once', async () => {
    // Each page is held 150 ms, so the pages of a round are in progress together.
    let inFlight = 0;
    let most = 0;
    const pages = 90;
    const server = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ Results: [page], NumberOfPages: pages, TotalNumberOfRecords: pages }));
      }, 150);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k' });
    try {
      const concurrency = DEFAULT_CONNECTIONS + 12;
      const walk = await client.paginate<{ Results: number[]; NumberOfPages: number }, number>({
        fetchPage: async (page, { signal }) => (await client.send({ method: 'GET', path: '/email/things', query: { page }, idempotent: true, signal })).data as { Results: number[]; NumberOfPages: number },
        records: (p) => p.Results,
        pageCount: (p) => p.NumberOfPages,
        concurrency,
      });
      const seen: number[] = [];
      for await (const record of walk) seen.push(record);
      expect(seen).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
      // Slow start comes first (two at a time for twelve answers, then rounds of 4, 8, 16); then the whole --concurrency at once.
      expect(most).toBe(concurrency);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
