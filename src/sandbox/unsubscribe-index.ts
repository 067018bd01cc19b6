// Sort orders of a sent campaign's generated unsubscribe records
// (seed-campaigns.ts generateUnsubscribeRecords), built once per order field
// and reused by every page. Each running sandbox owns one UnsubscribeIndexes
// (SandboxContext.unsubscribeIndexes): sandboxes in one process share
// nothing, and a stopped sandbox's indexes go with it.
import { generateUnsubscribeRecords, type UnsubscribeRecords } from './seed-campaigns.js';
import type { SandboxCampaign } from './types-campaigns.js';

export type UnsubscribeOrderField = 'email' | 'name' | 'date';

interface UnsubscribeIndex {
  records: UnsubscribeRecords;
  orders: Partial<Record<UnsubscribeOrderField, Uint32Array>>;
  /** Recently used date-filtered orders (`field|since`), so paging through a filtered set does not filter again per page. */
  filtered: Map<string, Uint32Array>;
  /** Formatted dates, filled in as pages are served. */
  dateTexts: (string | undefined)[];
}

const FILTERED_CACHE_LIMIT = 4;
/** Campaigns whose indexes are kept; the oldest goes first. */
const INDEX_CACHE_LIMIT = 8;

/** The indexes of one sandbox, by campaign and everything its records derive from. */
export class UnsubscribeIndexes {
  private readonly byKey = new Map<string, UnsubscribeIndex>();

  /** The index of `count` records of `campaign`, generated on first use. */
  of(campaign: SandboxCampaign, count: number): UnsubscribeIndex {
    const key = `${campaign.CampaignID}|${campaign.Unsubscribes?.Seed}|${count}|${campaign.SentDate}|${campaign.ListIDs.join(',')}`;
    let index = this.byKey.get(key);
    if (!index) {
      const records = generateUnsubscribeRecords(campaign.Unsubscribes?.Seed ?? 0, count, campaign.SentDate ?? new Date(0).toISOString(), campaign.ListIDs);
      index = { records, orders: {}, filtered: new Map(), dateTexts: [] };
      if (this.byKey.size >= INDEX_CACHE_LIMIT) this.byKey.delete(this.byKey.keys().next().value!);
      this.byKey.set(key, index);
    }
    return index;
  }
}

/** Record numbers in ascending order of `field`; ties keep record order, so paging never repeats or skips a record. */
export function sortedBy(index: UnsubscribeIndex, field: UnsubscribeOrderField): Uint32Array {
  const cached = index.orders[field];
  if (cached) return cached;
  const { records } = index;
  const order = new Uint32Array(records.count);
  for (let i = 0; i < order.length; i++) order[i] = i;
  if (field === 'date') {
    const d = records.dates;
    order.sort((a, b) => d[a] - d[b] || a - b);
  } else {
    const keys = field === 'email' ? records.emails : records.names;
    order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  }
  index.orders[field] = order;
  return order;
}

/** `order` without the records before `since`; cached for the next pages. */
export function filteredBy(index: UnsubscribeIndex, field: UnsubscribeOrderField, order: Uint32Array, since: number): Uint32Array {
  const key = `${field}|${since}`;
  let filtered = index.filtered.get(key);
  if (!filtered) {
    const dates = index.records.dates;
    filtered = order.filter((i) => dates[i] >= since);
    if (index.filtered.size >= FILTERED_CACHE_LIMIT) index.filtered.delete(index.filtered.keys().next().value!);
    index.filtered.set(key, filtered);
  }
  return filtered;
}

/** First position in the date-sorted `order` whose date is ≥ `since`. */
export function lowerBound(order: Uint32Array, dates: Float64Array, since: number): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[order[mid]] < since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
