// The paged unsubscribes listing on the tests' loopback server
// (scripted-server.ts serve()), with data and timing the test controls: the
// records as they stand at each request (to change the total during a walk)
// and a delay per page (to make later pages answer first).
import { serve, type Served } from './scripted-server.js';

export interface PagedRecord {
  EmailAddress: string;
  ListID: string;
  Date: string;
  IPAddress: string;
}

export interface PagedServerOptions {
  /** The full listing as it stands when the `requestIndex`-th request (0-based) arrives. */
  records(requestIndex: number): PagedRecord[];
  /** Milliseconds before answering a page. */
  delayMs?(page: number): number;
  /** Answer this page with this status instead (once). */
  failPage?: { page: number; status: number; body: unknown };
}

export interface PagedServer extends Served {
  /** Pages asked for, in arrival order, with their query. */
  readonly requests: { page: number; query: URLSearchParams }[];
}

export function record(i: number): PagedRecord {
  return { EmailAddress: `person${String(i).padStart(5, '0')}@example.com`, ListID: '11111111-1111-4111-8111-111111111111', Date: `2024-02-01 10:${String(i % 60).padStart(2, '0')}:00`, IPAddress: '192.0.2.1' };
}

const queryOf = (url: string) => new URL(url, 'http://localhost').searchParams;
const pageOf = (query: URLSearchParams) => Number(query.get('page') ?? '1');

export async function startPagedServer(options: PagedServerOptions): Promise<PagedServer> {
  let failed = false;
  const served = await serve((call, index) => {
    const query = queryOf(call.url);
    const page = pageOf(query);
    const pageSize = Number(query.get('pagesize') ?? '1000');
    const all = options.records(index);
    const delayMs = options.delayMs?.(page) ?? 0;
    if (options.failPage && options.failPage.page === page && !failed) {
      failed = true;
      return { status: options.failPage.status, body: options.failPage.body, delayMs };
    }
    const results = all.slice((page - 1) * pageSize, page * pageSize);
    const envelope = { Results: results, ResultsOrderedBy: 'date', OrderDirection: 'asc', PageNumber: page, PageSize: pageSize, RecordsOnThisPage: results.length, TotalNumberOfRecords: all.length, NumberOfPages: Math.ceil(all.length / pageSize) };
    return { status: 200, body: envelope, delayMs };
  });
  return {
    url: served.url,
    calls: served.calls,
    get maxInFlight() {
      return served.maxInFlight;
    },
    get requests() {
      return served.calls.map((call) => ({ page: pageOf(queryOf(call.url)), query: queryOf(call.url) }));
    },
    close: served.close,
  };
}
