// Campaign unsubscribers (service-spec.md "Campaign unsubscribers", "Paged
// result envelope (campaign unsubscribes)", codes 5 and 800-803). Records are
// generated, not stored (seed-campaigns.ts); their sort orders live in the
// running sandbox's UnsubscribeIndexes (unsubscribe-index.ts).
import { requireCampaign, unsubscribeCount } from '../campaign-lookup.js';
import { serviceDateTime } from '../dates.js';
import { failCoded, ok, type RouteDef } from '../router.js';
import { filteredBy, lowerBound, sortedBy, type UnsubscribeOrderField } from '../unsubscribe-index.js';

const MESSAGES = {
  5: 'Invalid date: use YYYY-MM-DD HH:MM.',
  800: 'Invalid page number.',
  801: 'The page size must be between 10 and 1000.',
  802: 'Invalid order field: use email, name or date.',
  803: 'Invalid order direction: use asc or desc.',
} as const;

/**
 * Defaults of the paging query (the spec: "not shown"): page 1, the largest
 * page (1000), ordered by date, ascending: oldest first, the order records
 * arrive in, so a walk over all pages is stable while new ones come in.
 */
const DEFAULTS = { page: 1, pageSize: 1000, orderField: 'date' as UnsubscribeOrderField, orderDirection: 'asc' as 'asc' | 'desc' };
/** service-spec.md "Campaign unsubscribers": page size between 10 and 1000. */
const PAGE_SIZE_MIN = 10;
const PAGE_SIZE_MAX = 1000;
const INT32_MAX = 2_147_483_647;

/** YYYY-MM-DD HH:MM (service-spec.md "Campaign unsubscribers": date) in the client's time zone (UTC) → ms; else undefined. */
function parseSinceDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  return ms;
}

function queryValue(query: Record<string, string>, name: string): string | undefined {
  const value = query[name];
  // An empty parameter counts as not given.
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

const campaignUnsubscribes: RouteDef = {
  method: 'GET',
  pattern: '/email/campaigns/:campaignId/unsubscribes',
  handler(req, ctx) {
    const campaign = requireCampaign(ctx.state, req.params.campaignId);
    const q = req.query;
    const dateText = queryValue(q, 'date');
    const since = dateText === undefined ? undefined : parseSinceDate(dateText);
    if (dateText !== undefined && since === undefined) failCoded(5, `${MESSAGES[5]} (${dateText})`);
    const pageText = queryValue(q, 'page');
    const page = pageText === undefined ? DEFAULTS.page : /^\d+$/.test(pageText) ? Number(pageText) : NaN;
    if (!(page >= 1 && page <= INT32_MAX)) failCoded(800, `${MESSAGES[800]} (${pageText})`);
    const sizeText = queryValue(q, 'pagesize');
    const pageSize = sizeText === undefined ? DEFAULTS.pageSize : /^\d+$/.test(sizeText) ? Number(sizeText) : NaN;
    if (!(pageSize >= PAGE_SIZE_MIN && pageSize <= PAGE_SIZE_MAX)) failCoded(801, `${MESSAGES[801]} (${sizeText})`);
    const fieldText = queryValue(q, 'orderfield')?.toLowerCase() ?? DEFAULTS.orderField;
    if (fieldText !== 'email' && fieldText !== 'name' && fieldText !== 'date') failCoded(802, `${MESSAGES[802]} (${q.orderfield})`);
    const field: UnsubscribeOrderField = fieldText;
    const directionText = queryValue(q, 'orderdirection')?.toLowerCase() ?? DEFAULTS.orderDirection;
    if (directionText !== 'asc' && directionText !== 'desc') failCoded(803, `${MESSAGES[803]} (${q.orderdirection})`);
    const descending = directionText === 'desc';

    const count = unsubscribeCount(ctx, campaign);
    const index = count > 0 ? ctx.unsubscribeIndexes.of(campaign, count) : undefined;
    let selected: Uint32Array = new Uint32Array(0);
    if (index) {
      const order = sortedBy(index, field);
      if (since === undefined) selected = order;
      else if (field === 'date') selected = order.subarray(lowerBound(order, index.records.dates, since));
      else selected = filteredBy(index, field, order, since);
    }
    const total = selected.length;
    const first = (page - 1) * pageSize;
    const results = [];
    for (let k = first; k < Math.min(total, first + pageSize); k++) {
      const i = descending ? selected[total - 1 - k] : selected[k];
      const r = index!.records;
      const date = (index!.dateTexts[i] ??= serviceDateTime(new Date(r.dates[i])));
      results.push({ EmailAddress: r.emails[i], ListID: r.listIds[i], Date: date, IPAddress: r.ips[i] });
    }
    // service-spec.md "Paged result envelope (campaign unsubscribes)".
    return ok({
      Results: results,
      ResultsOrderedBy: field,
      OrderDirection: directionText,
      PageNumber: page,
      PageSize: pageSize,
      RecordsOnThisPage: results.length,
      TotalNumberOfRecords: total,
      NumberOfPages: Math.ceil(total / pageSize),
    });
  },
};

export const routes: RouteDef[] = [campaignUnsubscribes];
