// email api --paginate (CLI.md "email api"): a GET answered with the paged
// envelope (service-spec.md "Paged result envelope": Results, PageNumber,
// NumberOfPages) is walked like --all, through the same ordered, bounded
// walker (core/paginate.ts): every page, a window of them in flight, handed
// out in page order, ending at the first empty page or at twice page 1's
// total, and at --limit. All Results print as one JSON array (`-o ndjson`:
// one a line), through the renderer's stream, so --fields, --jq and --limit apply.
import type { Context } from '../../context.js';
import type { QueryValue } from '../../core/http.js';
import { Throttle } from '../../core/throttle.js';
import { isPagedEnvelope } from '../../output/shape.js';

type Envelope = { Results: unknown[]; NumberOfPages?: unknown; TotalNumberOfRecords?: unknown };

export async function paginate(ctx: Context, path: string, query: Record<string, QueryValue[]>, concurrency: number): Promise<void> {
  const [client, { walkPages }] = await Promise.all([ctx.api(concurrency > 8 ? { connections: concurrency } : undefined), import('../../core/paginate.js')]);
  // One flow control for page 1 and the walk (CLI.md "flow control"): page 1's answer sets the pace.
  const throttle = new Throttle({ maxInFlight: concurrency, debug: client.debugSink });
  const fetchPage = async (page: number, signal?: AbortSignal) => {
    const res = await client.send({ method: 'GET', path, query: { ...query, page: [String(page)] }, idempotent: true, signal, throttle });
    return res.data;
  };
  // Page 1 tells whether the answer is paged at all; it is the walk's first page too.
  const first = await fetchPage(1, ctx.signal);
  if (!isPagedEnvelope(first)) {
    ctx.log.warn(`--paginate: the answer of GET ${path} is not the paged envelope (Results, PageNumber, NumberOfPages); printed as it came`);
    await ctx.out.json(first);
    return;
  }
  const stream = ctx.out.stream(undefined, { json: true });
  const count = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0) || 0);
  let written = 0;
  let pages = 0;
  const walk = walkPages<Envelope>({
    fetchPage: async (page, signal) => {
      if (page === 1) return first as Envelope;
      const data = await fetchPage(page, signal);
      // A later page that is not the envelope ends the walk as an empty page would.
      return isPagedEnvelope(data) ? (data as Envelope) : { Results: [] };
    },
    pageCount: (p) => count(p.NumberOfPages),
    recordCount: (p) => p.Results.length,
    totalRecords: (p) => count(p.TotalNumberOfRecords),
    concurrency,
    throttle,
    signal: ctx.signal,
    recordLimit: ctx.out.limit,
    onRunaway: (stop) =>
      ctx.log.warn(`the service kept reporting more pages (${stop.pageCount} at page ${stop.pageNumber}): stopped after ${stop.recordsRead} records, twice the ${stop.firstTotal} that page 1 reported`),
  });
  const limit = ctx.out.limit ?? Number.POSITIVE_INFINITY;
  for await (const { page } of walk) {
    pages++;
    for (const record of page.Results) {
      if (written >= limit) break;
      await stream.write(record);
      written++;
    }
    if (written >= limit) break;
  }
  await stream.end();
  ctx.log.info(`${written} records from ${pages} page${pages === 1 ? '' : 's'}`);
}
