// A loopback server for the paged unsubscribes listing whose data and timing a
// test controls: the records as they stand at each request (to change the
// total during a walk) and a delay per page (to make later pages answer
// first). It counts requests in flight, so a test can check the walk's window.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface PagedServer {
  url: string;
  /** Pages asked for, in arrival order, with their query. */
  requests: { page: number; query: URLSearchParams }[];
  maxInFlight: number;
  close(): Promise<void>;
}

export function record(i: number): PagedRecord {
  return { EmailAddress: `person${String(i).padStart(5, '0')}@example.com`, ListID: '11111111-1111-4111-8111-111111111111', Date: `2024-02-01 10:${String(i % 60).padStart(2, '0')}:00`, IPAddress: '192.0.2.1' };
}

export async function startPagedServer(options: PagedServerOptions): Promise<PagedServer> {
  const requests: PagedServer['requests'] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let failed = false;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? '1');
    const pageSize = Number(url.searchParams.get('pagesize') ?? '1000');
    const index = requests.length;
    requests.push({ page, query: url.searchParams });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const all = options.records(index);
    const delay = options.delayMs?.(page) ?? 0;
    if (delay) await new Promise((r) => setTimeout(r, delay));
    inFlight--;
    if (options.failPage && options.failPage.page === page && !failed) {
      failed = true;
      res.writeHead(options.failPage.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(options.failPage.body));
      return;
    }
    const results = all.slice((page - 1) * pageSize, page * pageSize);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        Results: results,
        ResultsOrderedBy: 'date',
        OrderDirection: 'asc',
        PageNumber: page,
        PageSize: pageSize,
        RecordsOnThisPage: results.length,
        TotalNumberOfRecords: all.length,
        NumberOfPages: Math.ceil(all.length / pageSize),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
