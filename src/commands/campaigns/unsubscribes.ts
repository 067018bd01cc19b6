// email campaigns unsubscribes: GET /email/campaigns/{id}/unsubscribes
// (service-spec.md "Campaign unsubscribers", "Paged result envelope").
//
// One page: the envelope in JSON, its records otherwise. --all: the first
// page (at the largest page size unless --page-size says otherwise) gives the
// page count; the other pages are fetched a few at a time and their records
// written in order as they arrive, through the renderer's stream, so memory
// stays flat however many records there are.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../core/http.js';
import { UsageError } from '../../core/errors.js';
import type { Column } from '../../output/render.js';
import type { UnsubscribesPage } from '../../schemas/campaigns.js';
import { ORDER_DIRECTIONS, ORDER_FIELDS } from '../../api/enums.js';
import type { UnsubscribesQuery } from '../../validation/query-params.js';
import { choiceOption, defineCommand, idArg, intOption, switchOption, textOption } from '../define.js';

/** service-spec.md "Campaign unsubscribers": records per page, between 10 and 1000; otherwise 801. */
const MAX_PAGE_SIZE = 1000;
const MIN_PAGE_SIZE = 10;

/**
 * Pages in flight at once during --all unless --concurrency says otherwise: as
 * many as the client's keep-alive pool has connections. With 50 ms of latency
 * per request, 8 gave about 4.8× the speed of sequential pages and 6 about
 * 3.3–4× (bench/unsubscribes); memory is the same either way, since a page is
 * held only until written. Under a rate limit the walk is paced whatever the
 * number (CLI.md "flow control").
 */
export const WALK_CONCURRENCY = 8;
/** As `subscribers import --concurrency`. */
const MAX_CONCURRENCY = 32;

/** The fields of service-spec.md "Campaign unsubscriber record", for tables and CSV. */
const COLUMNS: Column[] = [
  { key: 'EmailAddress', header: 'Email', fixed: true },
  { key: 'ListID', header: 'List' },
  { key: 'Date', header: 'Date' },
  { key: 'IPAddress', header: 'IP address' },
];

export default defineCommand({
  name: 'unsubscribes',
  summary: 'List the addresses that unsubscribed through a campaign',
  records: { schema: async () => (await import('../../schemas/campaigns.js')).unsubscriberRecord, list: true },
  args: { campaign: idArg('campaign', 'campaign id') },
  options: {
    since: textOption('--since', '<"YYYY-MM-DD HH:MM">', 'only unsubscribes on or after this moment (a day YYYY-MM-DD, or ISO YYYY-MM-DDTHH:MM, in the account time zone)'),
    // service-spec.md "Campaign unsubscribers": page invalid 800, pagesize 10..1000 otherwise 801, orderfield 802, orderdirection 803.
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
    const [{ getUnsubscribesPage }, { toInt }, { checkSince }] = await Promise.all([
      import('../../api/campaigns.js'),
      import('../../schemas/common.js'),
      import('../../validation/query-params.js'),
    ]);
    const query: UnsubscribesQuery = {
      date: checkSince(input.since),
      page: input.page,
      pagesize: input.pageSize,
      orderfield: input.orderField,
      orderdirection: input.orderDirection,
    };
    if (input.all && query.page !== undefined) throw new UsageError('--all walks every page from the first: leave out --page');
    const walking = input.all || (ctx.out.limit !== undefined && query.page === undefined);
    // One keep-alive connection per page in flight.
    const client = await (walking && input.concurrency > WALK_CONCURRENCY ? ctx.api({ connections: input.concurrency }) : ctx.api());
    // --limit without --page walks too, as far as the limit needs (CLI.md `--limit`), at a page size that fits it.
    const limit = ctx.out.limit;
    if (input.all || (limit !== undefined && query.page === undefined)) {
      const pagesize = query.pagesize ?? (limit !== undefined ? Math.min(MAX_PAGE_SIZE, Math.max(MIN_PAGE_SIZE, limit)) : MAX_PAGE_SIZE);
      return walkAll(ctx, client, input.campaign, { ...query, pagesize }, input.concurrency);
    }

    const page = await getUnsubscribesPage(client, input.campaign, query);
    // JSON: the service's envelope unchanged, so scripts get the paging fields too.
    await (ctx.out.format === 'json' ? ctx.out.print(page) : ctx.out.print(page.Results, { columns: COLUMNS }));
    // Under the records, where a person at a terminal reads on.
    const number = toInt(page.PageNumber);
    const pages = toInt(page.NumberOfPages);
    ctx.log.info(
      `Page ${number} of ${pages} · ${toInt(page.TotalNumberOfRecords)} records in all${number < pages ? ` · next: --page ${number + 1}, or --all for every page` : ''}`,
    );
  },
});

/** A record's identity, to print a record once when records move across a page boundary during the walk. */
function recordKey(r: UnsubscribesPage['Results'][number]): string {
  return `${r.EmailAddress}\u0000${r.ListID ?? ''}\u0000${r.Date ?? ''}\u0000${r.IPAddress ?? ''}`;
}

/** Pages between full collections during --all (see src/core/heap.ts). */
const GC_EVERY_PAGES = 4;

async function walkAll(ctx: Context, client: ApiClient, campaignId: string, query: UnsubscribesQuery, concurrency: number): Promise<void> {
  const [{ getUnsubscribesPage }, { walkPages }, heap, { toInt }] = await Promise.all([
    import('../../api/campaigns.js'),
    import('../../core/paginate.js'),
    ctx.heap?.(),
    import('../../schemas/common.js'),
  ]);
  const stream = ctx.out.stream({ columns: COLUMNS });
  const collectGarbage = heap?.compactHeapForStreaming();
  let firstTotal: number | undefined;
  let warned = false;
  let written = 0;
  let repeats = 0;
  let pages = 0;
  let previous: UnsubscribesPage['Results'] | undefined;
  const walk = walkPages<UnsubscribesPage>({
    fetchPage: (page, signal, throttle) => getUnsubscribesPage(client, campaignId, { ...query, page }, { signal, throttle }),
    pageCount: (p) => toInt(p.NumberOfPages),
    recordCount: (p) => p.Results.length,
    totalRecords: (p) => toInt(p.TotalNumberOfRecords),
    concurrency,
    debug: client.debugSink,
    signal: ctx.signal,
    recordLimit: ctx.out.limit,
    onRunaway: (stop) =>
      ctx.log.warn(
        `the service kept reporting more unsubscribes (${stop.pageCount} pages at page ${stop.pageNumber}): stopped after ${stop.recordsRead} records, twice the ${stop.firstTotal} that page 1 reported. Run again for the rest.`,
      ),
  });
  const limit = ctx.out.limit ?? Number.POSITIVE_INFINITY;
  for await (const { pageNumber, page } of walk) {
    pages++;
    const total = toInt(page.TotalNumberOfRecords);
    firstTotal ??= total;
    if (total !== firstTotal && !warned) {
      warned = true;
      ctx.log.warn(
        `the number of unsubscribes changed during the walk (${firstTotal} at page 1, ${total} at page ${pageNumber}); records that moved between pages may be missing. Records are printed once each; run again for a consistent copy.`,
      );
    }
    // Records shift between pages only when the total moves: then a record
    // pushed over a page boundary comes again at the start of the next page.
    // Keys are built only in that case, from the previous page kept for it.
    const seen = warned && previous ? new Set(previous.map(recordKey)) : undefined;
    for (const record of page.Results) {
      if (seen?.has(recordKey(record))) {
        repeats++;
        continue;
      }
      if (written >= limit) break;
      await stream.write(record);
      written++;
    }
    // --limit reached: leaving the loop ends the walk and cancels the pages in flight (core/paginate.ts).
    if (written >= limit) break;
    previous = page.Results;
    if (pages % GC_EVERY_PAGES === 0) collectGarbage?.();
  }
  await stream.end();
  ctx.log.info(`${written} records from ${pages} page${pages === 1 ? '' : 's'}${repeats ? ` (${repeats} repeated across pages skipped)` : ''}`);
}
