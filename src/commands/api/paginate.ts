// email api --paginate: a GET answered with the paged envelope is walked like
// --all, through the one page walk, so --fields, --jq and --limit apply. An
// answer that is not the envelope is printed as it came.
import type { Context } from '../../context.js';
import type { QueryValue } from '../../core/http.js';
import { isPagedEnvelope } from '../../core/paged-envelope.js';
import { asJson, type Result } from '../define.js';

export async function paginate(ctx: Context, path: string, query: Record<string, QueryValue[]>, { concurrency, limit }: { concurrency: number; limit?: number }): Promise<Result> {
  const client = await ctx.api();
  const count = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0) || 0);
  const walk = await client.paginate<unknown, unknown>({
    fetchPage: async (page, { signal }) => (await client.send({ method: 'GET', path, query: { ...query, page: [String(page)] }, idempotent: true, signal })).data,
    // A later page that is not the envelope ends the walk as an empty page would.
    records: (p) => (isPagedEnvelope(p) ? p.Results : undefined),
    pageCount: (p) => (isPagedEnvelope(p) ? count(p.NumberOfPages) : 1),
    totalRecords: (p) => (isPagedEnvelope(p) ? count(p.TotalNumberOfRecords) : 0),
    concurrency,
    limit,
    signal: ctx.signal,
    onRunaway: (stop) =>
      ctx.log.warn(`the service kept reporting more pages (${stop.pageCount} at page ${stop.pageNumber}): stopped after ${stop.recordsRead} records, twice the ${stop.firstTotal} that page 1 reported`),
  });
  const records = walk[Symbol.asyncIterator]();
  const first = await records.next();
  if (first.done && walk.unpaged !== undefined) {
    ctx.log.warn(`--paginate: the answer of GET ${path} is not the paged envelope (Results, PageNumber, NumberOfPages); printed as it came`);
    return { data: walk.unpaged, people: asJson };
  }
  async function* all(): AsyncGenerator<unknown> {
    let next = first;
    try {
      for (; !next.done; next = await records.next()) yield next.value;
    } finally {
      // A reader gone stops the walk's pages in flight too.
      if (!next.done) await records.return?.();
    }
  }
  return {
    data: all(),
    people: asJson,
    // The paging facts follow the records, once the walk has ended.
    message: () => void ctx.log.emit('page', `${walk.records} records from ${walk.pages} page${walk.pages === 1 ? '' : 's'}`, { records: walk.records, pages: walk.pages }),
  };
}
