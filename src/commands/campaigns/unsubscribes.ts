// email campaigns unsubscribes: every form reads through the one page walk and
// streams its records as one array; --all writes pages in order as they arrive,
// so memory stays flat. The paging facts go to stderr.
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import type { RecordWalkRun } from '../../core/paginate.js';
import { WALK_CONCURRENCY } from '../../core/pool.js';
import type { Column } from '../define.js';
import type { UnsubscribesPage } from '../../schemas/campaigns.js';
import { ORDER_DIRECTIONS, ORDER_FIELDS } from '../../schemas/enums.js';
import type { UnsubscribesQuery } from '../../validation/query-params.js';
import { choiceOption, defineCommand, idArg, intOption, switchOption, textOption, type Result } from '../define.js';

const MAX_PAGE_SIZE = 1000;
const MIN_PAGE_SIZE = 10;

const MAX_CONCURRENCY = 32;

/** The list id, most often one for all, only with --wide. */
const COLUMNS: Column[] = [
  { key: 'EmailAddress', header: 'Email', fixed: true },
  { key: 'ListID', header: 'List', wide: true },
  { key: 'Date', header: 'Date' },
  { key: 'IPAddress', header: 'IP address' },
];

export default defineCommand({
  name: 'unsubscribes',
  summary: 'List the addresses that unsubscribed through a campaign',
  records: { schema: async () => (await import('../../schemas/campaigns.js')).unsubscriberRecord, list: true },
  args: { campaign: idArg('campaign', 'campaign id') },
  options: {
    since: textOption('--since', '<"YYYY-MM-DD HH:MM">', 'only unsubscribes on or after this moment (a day YYYY-MM-DD, or ISO YYYY-MM-DDTHH:MM, in the account time zone)', { serviceName: 'date' }),
    // The service's codes: page 800, pagesize 801, orderfield 802, orderdirection 803.
    page: intOption('--page', '<n>', 'page number (from 1)', { min: 1, max: 2_147_483_647, code: 800 }),
    pageSize: intOption('--page-size', '<n>', `records per page (10..1000; with --all, default ${MAX_PAGE_SIZE})`, { min: 10, max: MAX_PAGE_SIZE, code: 801 }),
    orderField: choiceOption('--order-field', '<field>', 'sort field', ORDER_FIELDS, { code: 802 }),
    orderDirection: choiceOption('--order-direction', '<dir>', 'sort direction', ORDER_DIRECTIONS, { code: 803 }),
    all: switchOption('--all', 'walk every page and print all records as one stream'),
    concurrency: intOption('--concurrency', '<n>', 'pages in flight at once with --all', { min: 1, max: MAX_CONCURRENCY, default: WALK_CONCURRENCY }),
  },
  examples: [
    'email campaigns unsubscribes <id>',
    'email campaigns unsubscribes --campaign <id> --all --json | jq length',
    'email campaigns unsubscribes <id> --since "2024-06-01 00:00" --all -o ndjson',
  ],
  async run(input, ctx) {
    const { checkSince } = await import('../../validation/query-params.js');
    const query: UnsubscribesQuery = {
      date: checkSince(input.since),
      page: input.page,
      pagesize: input.pageSize,
      orderfield: input.orderField,
      orderdirection: input.orderDirection,
    };
    if (input.all && query.page !== undefined) throw new UsageError('--all walks every page from the first: leave out --page');
    const limit = input.limit;
    // --limit without --page walks too, as far as the limit needs.
    const walking = input.all || (limit !== undefined && query.page === undefined);
    const pagesize = walking ? (query.pagesize ?? (limit !== undefined ? Math.min(MAX_PAGE_SIZE, Math.max(MIN_PAGE_SIZE, limit)) : MAX_PAGE_SIZE)) : query.pagesize;
    return walkResult(ctx, input.campaign, { ...query, pagesize }, walking ? undefined : { asked: query.page }, { concurrency: input.concurrency, limit });
  },
});

/** To print a record once when records move across a page boundary during the walk. */
function recordKey(r: UnsubscribesPage['Results'][number]): string {
  return `${r.EmailAddress}\u0000${r.ListID ?? ''}\u0000${r.Date ?? ''}\u0000${r.IPAddress ?? ''}`;
}

/** Reads one page (`one`) or walks them all; the paging facts go to stderr once the records are out. */
async function walkResult(
  ctx: Context,
  campaignId: string,
  query: UnsubscribesQuery,
  one: { asked?: number } | undefined,
  { concurrency, limit }: { concurrency: number; limit?: number },
): Promise<Result> {
  const [{ getUnsubscribesPage }, client, { toInt }] = await Promise.all([import('../../api/campaigns.js'), ctx.api(), import('../../schemas/common.js')]);
  const walk = await client.paginate<UnsubscribesPage, UnsubscribesPage['Results'][number]>({
    fetchPage: (n, request) => getUnsubscribesPage(client, campaignId, { ...query, page: one ? one.asked : n }, request),
    records: (p) => p.Results,
    pageCount: (p) => toInt(p.NumberOfPages),
    totalRecords: (p) => toInt(p.TotalNumberOfRecords),
    concurrency,
    limit,
    page: one ? (one.asked ?? 1) : undefined,
    key: recordKey,
    signal: ctx.signal,
    onRunaway: (stop) =>
      ctx.log.warn(
        `the service kept reporting more unsubscribes (${stop.pageCount} pages at page ${stop.pageNumber}): stopped after ${stop.recordsRead} records, twice the ${stop.firstTotal} that page 1 reported. Run again for the rest.`,
      ),
    onTotalChanged: ({ firstTotal, total, pageNumber }) =>
      ctx.log.warn(
        `the number of unsubscribes changed during the walk (${firstTotal} at page 1, ${total} at page ${pageNumber}); records that moved between pages may be missing. Records are printed once each; run again for a consistent copy.`,
      ),
    heap: ctx.heap,
  });
  // The paging facts follow the records, once the walk has ended.
  return { data: walk, columns: COLUMNS, message: () => void pagingFacts(ctx, walk, one !== undefined) };
}

function pagingFacts(ctx: Context, walk: RecordWalkRun<UnsubscribesPage, UnsubscribesPage['Results'][number]>, one: boolean): void {
  const last = walk.last;
  if (one && last) {
    const { pageNumber, pageCount } = last;
    // An empty page past the end is not an empty listing: say where the listing ends.
    if (pageNumber > pageCount) {
      ctx.log.warn(`page ${pageNumber} is past the last page: ${pageCount ? `there ${pageCount === 1 ? 'is 1 page' : `are ${pageCount} pages`}` : 'there are no pages (no records)'}`);
    }
    ctx.log.emit(
      'page',
      `Page ${pageNumber} of ${pageCount} · ${last.total ?? 0} records in all${pageNumber < pageCount ? ` · next: --page ${pageNumber + 1}, or --all for every page` : ''}`,
      { page: pageNumber, pages: pageCount, records: last.total ?? 0 },
    );
    return;
  }
  const { records, pages, repeats } = walk;
  ctx.log.emit('page', `${records} records from ${pages} page${pages === 1 ? '' : 's'}${repeats ? ` (${repeats} repeated across pages skipped)` : ''}`, { records, pages, repeats });
}
