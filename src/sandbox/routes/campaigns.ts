// Campaigns (service-spec.md "Draft campaign", "Scheduled campaign", "Sent
// campaign", "Campaign summary", "Paged result envelope", "Endpoints" →
// "Campaigns", "States and transitions", codes 303-376, 4201-4203, 43xx,
// 5 and 800-803).
import { randomUUID } from 'node:crypto';
import { isServiceAddress } from '../address.js';
import { canonicalId, isUuid } from '../identifiers.js';
import { serviceDateTime } from '../dates.js';
import { checkCampaignHtml, fetchLocalContent, isContentUrl } from '../html-checks.js';
import { failCoded, failStatus, ok, type RouteDef, type SandboxContext } from '../router.js';
import { campaignAccount, generateUnsubscribeRecords, type UnsubscribeRecords } from '../seed-campaigns.js';
import type { State } from '../types.js';
import type { SandboxCampaign } from '../types-campaigns.js';
import { segmentActiveMembers } from './segments.js';

export const CAMPAIGN_MESSAGES = {
  303: 'A campaign with this name already exists.',
  304: 'The subject is required.',
  305: 'The from name is required.',
  307: 'The from address is invalid.',
  308: 'The reply-to address is required.',
  309: 'The reply-to address is invalid.',
  310: 'The HTML URL is required (an absolute http, https or file URL).',
  312: 'The text URL is invalid.',
  313: 'Invalid list IDs.',
  314: 'Invalid segment IDs.',
  315: 'Lists or segments are required: give ListIDs or SegmentIDs, not both.',
  319: 'The campaign name is required.',
  322: 'The from name contains a reserved personalization tag.',
  323: 'A personalization tag in the from address needs a fallback.',
  324: 'The from address contains a reserved personalization tag.',
  325: 'A personalization tag in the reply-to address needs a fallback.',
  326: 'The reply-to address contains a reserved personalization tag.',
  333: 'No test campaigns are available: the allowance of this account is used up.',
  340: 'The recipient lists or segments of the campaign are empty.',
  341: 'The campaign is not scheduled.',
  370: 'No preview recipients were given.',
  371: 'Invalid preview recipient addresses; see ResultData.',
  373: 'The personalisation address is not a recipient of the campaign.',
  374: 'More than 15 preview recipients.',
  375: 'Test send rate exceeded: at most 240 preview addresses per 24 hours.',
  376: 'The campaign lacks content or recipient lists.',
  5: 'Invalid date: use YYYY-MM-DD HH:MM.',
  800: 'Invalid page number.',
  801: 'The page size must be between 10 and 1000.',
  802: 'Invalid order field: use email, name or date.',
  803: 'Invalid order direction: use asc or desc.',
} as const;

/** service-spec.md "Limits": preview recipients per call. */
export const PREVIEW_RECIPIENTS_PER_CALL = 15;
/** service-spec.md "Limits": preview sending rate, 240 addresses per 1440 minutes. */
export const PREVIEW_ADDRESSES_PER_DAY = 240;
const PREVIEW_WINDOW_MS = 1440 * 60_000;

/**
 * Preview, web-version and worldview URLs of the sandbox's campaigns. The
 * sandbox serves no such pages; the reserved .invalid domain (RFC 2606) makes
 * that plain and keeps anyone from fetching them elsewhere.
 */
export const CAMPAIGN_PAGES_BASE = 'https://campaigns.sandbox.invalid';

/** Header carrying the id of a created draft: the 200 body names only its lists or segments (spec "Create draft campaign"). */
export const CREATED_CAMPAIGN_HEADER = 'X-Sandbox-Campaign-ID';

/** A campaign by id: a malformed id is a generic 400, an unknown one a 404 (the spec does not show the 404 shape). */
export function requireCampaign(state: State, campaignId: string): SandboxCampaign {
  if (!isUuid(campaignId)) failStatus(400, `Invalid campaign ID: ${campaignId} is not a UUID.`);
  const key = canonicalId(campaignId);
  const campaign = Object.hasOwn(state.campaigns, key) ? state.campaigns[key] : undefined;
  if (!campaign) failStatus(404, `Campaign ${campaignId} does not exist.`);
  return campaign;
}

// ---- personalisation tags (322-326) -------------------------------------------------------

/**
 * Personalisation tags are written `[name]` or `[name,fallback=value]`. The
 * subscriber's own data (first name, last name, full name, address) is
 * reserved: a sender cannot be the recipient. Other tags (custom fields) are
 * allowed in the from name, and in addresses when they carry a non-empty
 * fallback, which must then make the address valid.
 */
export const RESERVED_PERSONALISATION_TAGS = ['firstname', 'lastname', 'fullname', 'email'] as const;
const PERSONALISATION_TAG = /\[([^[\],]+?)(?:,\s*fallback=([^\]]*))?\]/gi;

interface TagUse {
  name: string;
  fallback: string | undefined;
}

function tagsIn(value: string): TagUse[] {
  return [...value.matchAll(PERSONALISATION_TAG)].map((m) => ({ name: m[1].trim().toLowerCase(), fallback: m[2]?.trim() }));
}

function isReserved(tag: TagUse): boolean {
  return (RESERVED_PERSONALISATION_TAGS as readonly string[]).includes(tag.name);
}

/** The address a sender field gives when every tag takes its fallback. */
function withFallbacks(value: string): string {
  return value.replace(PERSONALISATION_TAG, (_, _name: string, fallback: string | undefined) => (fallback ?? '').trim());
}

/** Checks FromEmail or ReplyTo: reserved tag, then missing fallback, then the address itself. */
function checkAddressField(value: string, codes: { reserved: 324 | 326; fallback: 323 | 325; invalid: 307 | 309 }): void {
  const tags = tagsIn(value);
  if (tags.some(isReserved)) failCoded(codes.reserved, CAMPAIGN_MESSAGES[codes.reserved]);
  if (tags.some((t) => !t.fallback)) failCoded(codes.fallback, CAMPAIGN_MESSAGES[codes.fallback]);
  if (!isServiceAddress(withFallbacks(value))) failCoded(codes.invalid, CAMPAIGN_MESSAGES[codes.invalid]);
}

// ---- create draft --------------------------------------------------------------------------

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** ListIDs / SegmentIDs: absent, null or [] mean "not given"; anything but an array of strings is invalid. */
function idArray(value: unknown): string[] | 'invalid' {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'invalid';
  // UUIDs in either case name the same list or segment (lists.ts canonicalId).
  return [...new Set((value as string[]).map((id) => (isUuid(id) ? canonicalId(id) : id)))];
}

const createDraft: RouteDef = {
  method: 'POST',
  pattern: '/email/campaigns',
  async handler(req, ctx) {
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) failStatus(400, 'The request body must be a JSON object (the draft campaign).');
    const b = body as Record<string, unknown>;
    const state = ctx.state;

    if (!nonEmptyString(b.Name)) failCoded(319, CAMPAIGN_MESSAGES[319]);
    const name = b.Name.trim();
    // "Unique per client (error 303)": the sandbox has one client; names compare without regard to case.
    const clash = Object.values(state.campaigns).find((c) => c.Name.trim().toLowerCase() === name.toLowerCase());
    if (clash) failCoded(303, `${CAMPAIGN_MESSAGES[303]} (${clash.CampaignID})`);
    if (!nonEmptyString(b.Subject)) failCoded(304, CAMPAIGN_MESSAGES[304]);
    if (!nonEmptyString(b.FromName)) failCoded(305, CAMPAIGN_MESSAGES[305]);
    if (tagsIn(b.FromName).some(isReserved)) failCoded(322, CAMPAIGN_MESSAGES[322]);
    if (typeof b.FromEmail !== 'string') failCoded(307, CAMPAIGN_MESSAGES[307]);
    checkAddressField(b.FromEmail, { reserved: 324, fallback: 323, invalid: 307 });
    if (!nonEmptyString(b.ReplyTo)) failCoded(308, CAMPAIGN_MESSAGES[308]);
    checkAddressField(b.ReplyTo, { reserved: 326, fallback: 325, invalid: 309 });
    if (!nonEmptyString(b.HtmlUrl) || !isContentUrl(b.HtmlUrl.trim())) failCoded(310, CAMPAIGN_MESSAGES[310]);
    const htmlUrl = b.HtmlUrl.trim();
    // TextUrl: "If omitted or empty, text content is generated from the HTML. Must be valid if given (error 312)."
    let textUrl: string | null = null;
    if (b.TextUrl !== undefined && b.TextUrl !== null && b.TextUrl !== '') {
      if (typeof b.TextUrl !== 'string' || !isContentUrl(b.TextUrl.trim())) failCoded(312, CAMPAIGN_MESSAGES[312]);
      textUrl = b.TextUrl.trim();
    }

    const listIds = idArray(b.ListIDs);
    const segmentIds = idArray(b.SegmentIDs);
    if (listIds === 'invalid') failCoded(313, `${CAMPAIGN_MESSAGES[313]} (ListIDs must be an array of list IDs.)`);
    if (segmentIds === 'invalid') failCoded(314, `${CAMPAIGN_MESSAGES[314]} (SegmentIDs must be an array of segment IDs.)`);
    // "when SegmentIDs is used, ListIDs is to be removed from the request; one of the two must be supplied (error 315)".
    if ((listIds.length === 0) === (segmentIds.length === 0)) failCoded(315, CAMPAIGN_MESSAGES[315]);
    const badLists = listIds.filter((id) => !isUuid(id) || !Object.hasOwn(state.lists, id));
    if (badLists.length) failCoded(313, `${CAMPAIGN_MESSAGES[313]} (${badLists.join(', ')})`);
    const badSegments = segmentIds.filter((id) => !isUuid(id) || !Object.hasOwn(state.segments, id));
    if (badSegments.length) failCoded(314, `${CAMPAIGN_MESSAGES[314]} (${badSegments.join(', ')})`);

    // Content checks, only when the content is on this machine (html-checks.ts).
    const html = await fetchLocalContent(htmlUrl);
    if (html.kind === 'content') {
      const [problem] = checkCampaignHtml(html.bytes.toString('utf8'));
      if (problem) failCoded(problem.code, problem.message);
    }
    if (textUrl) {
      const text = await fetchLocalContent(textUrl);
      if (text.kind === 'content' && (text.bytes.includes(0) || text.bytes.toString('utf8').trim() === '')) {
        failCoded(312, `${CAMPAIGN_MESSAGES[312]} (the text URL gave no text.)`);
      }
    }
    // The name may have been taken while the content was read.
    if (Object.values(ctx.state.campaigns).some((c) => c.Name.trim().toLowerCase() === name.toLowerCase())) failCoded(303, CAMPAIGN_MESSAGES[303]);

    const campaign: SandboxCampaign = {
      CampaignID: randomUUID(),
      Name: name,
      Status: 'Draft',
      Subject: b.Subject,
      FromName: b.FromName,
      FromEmail: b.FromEmail.trim(),
      ReplyTo: b.ReplyTo.trim(),
      HtmlUrl: htmlUrl,
      TextUrl: textUrl,
      ListIDs: listIds,
      SegmentIDs: segmentIds,
      DateCreated: ctx.now().toISOString(),
      DateScheduled: null,
      ScheduledTimeZone: null,
      SentDate: null,
      Recipients: 0,
      Ratios: null,
      Unsubscribes: null,
    };
    ctx.store.mutate((s) => (s.campaigns[campaign.CampaignID] = campaign));
    // 200: "JSON object whose keys are the list or segment identifiers of the created campaign, each with an empty string value".
    const answer: Record<string, string> = {};
    for (const id of [...listIds, ...segmentIds]) answer[id] = '';
    return { status: 200, body: answer, headers: { [CREATED_CAMPAIGN_HEADER]: campaign.CampaignID } };
  },
};

// ---- preview ---------------------------------------------------------------------------------

/** Lower-cased addresses of the campaign's active recipients (lists' Active subscribers and segment members). */
export function campaignRecipients(state: State, campaign: SandboxCampaign): Set<string> {
  const recipients = new Set<string>();
  for (const listId of campaign.ListIDs) {
    const list = state.lists[listId];
    if (!list) continue;
    for (const [key, subscriber] of Object.entries(list.Subscribers)) if (subscriber.State === 'Active') recipients.add(key);
  }
  for (const segmentId of campaign.SegmentIDs) {
    const segment = state.segments[segmentId];
    if (!segment) continue;
    for (const subscriber of segmentActiveMembers(state, segment)) recipients.add(subscriber.EmailAddress.toLowerCase());
  }
  return recipients;
}

const sendPreview: RouteDef = {
  method: 'POST',
  pattern: '/email/campaigns/:campaignId/sendpreview',
  handler(req, ctx) {
    const state = ctx.state;
    const campaign = requireCampaign(state, req.params.campaignId);
    // "Body: {PreviewRecipients: array of string (email addresses), required}":
    // a body that is not an object, or PreviewRecipients of another type, is a
    // generic 400; a missing or empty array is 370 (below).
    if (req.body !== undefined && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
      failStatus(400, 'The request body must be a JSON object {PreviewRecipients: [...]}.');
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const given = body.PreviewRecipients;
    if (given !== undefined && given !== null && (!Array.isArray(given) || given.some((r) => typeof r !== 'string'))) {
      failStatus(400, 'PreviewRecipients must be an array of strings (email addresses).');
    }
    if (campaign.HtmlUrl === '' || campaign.ListIDs.length + campaign.SegmentIDs.length === 0) failCoded(376, CAMPAIGN_MESSAGES[376]);
    const recipients = campaignRecipients(state, campaign);
    if (recipients.size === 0) failCoded(340, CAMPAIGN_MESSAGES[340]);

    if (!Array.isArray(given) || given.length === 0) failCoded(370, CAMPAIGN_MESSAGES[370]);
    if (given.length > PREVIEW_RECIPIENTS_PER_CALL) failCoded(374, `${CAMPAIGN_MESSAGES[374]} (${given.length} given.)`);
    const invalid = (given as string[]).filter((r) => !isServiceAddress(r));
    // "ResultData lists the invalid ones as Recipient entries".
    if (invalid.length) failCoded(371, CAMPAIGN_MESSAGES[371], invalid.map((r) => ({ Recipient: r })));
    const addresses = [...new Set((given as string[]).map((r) => r.trim().toLowerCase()))];

    // Personalize (not in the spec's request body; the service's 373 implies
    // it): "Fallback" (the default, as the spec says tags are filled with
    // fallback values), "Random", or the address of a recipient whose data
    // fills the tags.
    const personalize = body.Personalize;
    if (personalize !== undefined && personalize !== null && personalize !== 'Fallback' && personalize !== 'Random') {
      if (typeof personalize !== 'string' || !recipients.has(personalize.trim().toLowerCase())) {
        failCoded(373, `${CAMPAIGN_MESSAGES[373]} (${String(personalize)})`);
      }
    }

    const account = campaignAccount(state);
    if (account.testCampaignsUsed >= account.testCampaignAllowance) failCoded(333, `${CAMPAIGN_MESSAGES[333]} (${account.testCampaignAllowance} used.)`);
    const now = ctx.now();
    const since = now.getTime() - PREVIEW_WINDOW_MS;
    const recent = state.previewLog.filter((entry) => Date.parse(entry.At) > since);
    const sentRecently = recent.reduce((sum, entry) => sum + entry.Recipients, 0);
    if (sentRecently + addresses.length > PREVIEW_ADDRESSES_PER_DAY) {
      failCoded(375, `${CAMPAIGN_MESSAGES[375]} (${sentRecently} sent in the last 24 hours; ${addresses.length} more asked.)`);
    }
    ctx.store.mutate((s) => {
      s.previewLog = [...recent, { At: now.toISOString(), CampaignID: campaign.CampaignID, Recipients: addresses.length }];
      account.testCampaignsUsed++;
    });
    return ok();
  },
};

// ---- unschedule ------------------------------------------------------------------------------

const unschedule: RouteDef = {
  method: 'POST',
  pattern: '/email/campaigns/:campaignId/unschedule',
  handler(req, ctx) {
    const campaign = requireCampaign(ctx.state, req.params.campaignId);
    // service-spec.md "States and transitions": scheduled → draft; anything
    // else is unchanged with 341. The sandbox never moves a scheduled campaign
    // on to sending by itself, so a scheduled one can always be unscheduled.
    if (campaign.Status !== 'Scheduled') failCoded(341, `${CAMPAIGN_MESSAGES[341]} (It is ${campaign.Status.toLowerCase()}.)`);
    ctx.store.mutate(() => {
      campaign.Status = 'Draft';
      campaign.DateScheduled = null;
      campaign.ScheduledTimeZone = null;
    });
    return ok();
  },
};

// ---- unsubscribes ----------------------------------------------------------------------------

export type UnsubscribeOrderField = 'email' | 'name' | 'date';

/**
 * Defaults of the paging query (the spec: "not shown"): page 1, the largest
 * page (1000), ordered by date, ascending: oldest first, the order records
 * arrive in, so a walk over all pages is stable while new ones come in.
 */
export const UNSUBSCRIBES_DEFAULTS = { page: 1, pageSize: 1000, orderField: 'date' as UnsubscribeOrderField, orderDirection: 'asc' as 'asc' | 'desc' };
/** service-spec.md "Campaign unsubscribers": page size between 10 and 1000. */
export const PAGE_SIZE_MIN = 10;
export const PAGE_SIZE_MAX = 1000;
const INT32_MAX = 2_147_483_647;

/** Number of unsubscribe records of a campaign: the `unsubscribesPerCampaign` option × the campaign's share. */
export function unsubscribeCount(ctx: SandboxContext, campaign: SandboxCampaign): number {
  if (campaign.Status !== 'Sent' || !campaign.Unsubscribes) return 0;
  return Math.round(ctx.options.unsubscribesPerCampaign * campaign.Unsubscribes.Share);
}

interface UnsubscribeIndex {
  records: UnsubscribeRecords;
  orders: Partial<Record<UnsubscribeOrderField, Uint32Array>>;
  /** Recently used date-filtered orders (`field|since`), so paging through a filtered set does not filter again per page. */
  filtered: Map<string, Uint32Array>;
  /** Formatted dates, filled in as pages are served. */
  dateTexts: (string | undefined)[];
}
const FILTERED_CACHE_LIMIT = 4;

/** Generated records and their sort orders, per campaign; sorted once per order field, then reused by every page. */
const indexCache = new Map<string, UnsubscribeIndex>();
const INDEX_CACHE_LIMIT = 8;

function unsubscribeIndex(campaign: SandboxCampaign, count: number): UnsubscribeIndex {
  const key = `${campaign.CampaignID}|${campaign.Unsubscribes?.Seed}|${count}|${campaign.SentDate}|${campaign.ListIDs.join(',')}`;
  let index = indexCache.get(key);
  if (!index) {
    index = { records: generateUnsubscribeRecords(campaign.Unsubscribes?.Seed ?? 0, count, campaign.SentDate ?? new Date(0).toISOString(), campaign.ListIDs), orders: {}, filtered: new Map(), dateTexts: [] };
    if (indexCache.size >= INDEX_CACHE_LIMIT) indexCache.delete(indexCache.keys().next().value!);
    indexCache.set(key, index);
  }
  return index;
}

/** Record numbers in ascending order of `field`; ties keep record order, so paging never repeats or skips a record. */
function sortedBy(index: UnsubscribeIndex, field: UnsubscribeOrderField): Uint32Array {
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

/** YYYY-MM-DD HH:MM (service-spec.md "Campaign unsubscribers": date) in the client's time zone (UTC) → ms; else undefined. */
export function parseSinceDate(text: string): number | undefined {
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
    if (dateText !== undefined && since === undefined) failCoded(5, `${CAMPAIGN_MESSAGES[5]} (${dateText})`);
    const pageText = queryValue(q, 'page');
    const page = pageText === undefined ? UNSUBSCRIBES_DEFAULTS.page : /^\d+$/.test(pageText) ? Number(pageText) : NaN;
    if (!(page >= 1 && page <= INT32_MAX)) failCoded(800, `${CAMPAIGN_MESSAGES[800]} (${pageText})`);
    const sizeText = queryValue(q, 'pagesize');
    const pageSize = sizeText === undefined ? UNSUBSCRIBES_DEFAULTS.pageSize : /^\d+$/.test(sizeText) ? Number(sizeText) : NaN;
    if (!(pageSize >= PAGE_SIZE_MIN && pageSize <= PAGE_SIZE_MAX)) failCoded(801, `${CAMPAIGN_MESSAGES[801]} (${sizeText})`);
    const fieldText = queryValue(q, 'orderfield')?.toLowerCase() ?? UNSUBSCRIBES_DEFAULTS.orderField;
    if (fieldText !== 'email' && fieldText !== 'name' && fieldText !== 'date') failCoded(802, `${CAMPAIGN_MESSAGES[802]} (${q.orderfield})`);
    const field: UnsubscribeOrderField = fieldText;
    const directionText = queryValue(q, 'orderdirection')?.toLowerCase() ?? UNSUBSCRIBES_DEFAULTS.orderDirection;
    if (directionText !== 'asc' && directionText !== 'desc') failCoded(803, `${CAMPAIGN_MESSAGES[803]} (${q.orderdirection})`);
    const descending = directionText === 'desc';

    const count = unsubscribeCount(ctx, campaign);
    const index = count > 0 ? unsubscribeIndex(campaign, count) : undefined;
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

/** `order` without the records before `since`; cached for the next pages. */
function filteredBy(index: UnsubscribeIndex, field: UnsubscribeOrderField, order: Uint32Array, since: number): Uint32Array {
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
function lowerBound(order: Uint32Array, dates: Float64Array, since: number): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[order[mid]] < since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---- summary and lists -----------------------------------------------------------------------

/**
 * Recipients of a sent campaign: the stored figure, raised when the generated
 * unsubscribes would otherwise exceed 4% of it, so counters stay plausible
 * whatever `unsubscribesPerCampaign` is.
 */
function effectiveRecipients(ctx: SandboxContext, campaign: SandboxCampaign): number {
  return Math.max(campaign.Recipients, unsubscribeCount(ctx, campaign) * 25);
}

function pageUrls(campaignId: string) {
  return {
    WebVersionURL: `${CAMPAIGN_PAGES_BASE}/web/${campaignId}`,
    WebVersionTextURL: `${CAMPAIGN_PAGES_BASE}/web/${campaignId}/text`,
    WorldviewURL: `${CAMPAIGN_PAGES_BASE}/worldview/${campaignId}`,
    PreviewURL: `${CAMPAIGN_PAGES_BASE}/preview/${campaignId}`,
    PreviewTextURL: `${CAMPAIGN_PAGES_BASE}/preview/${campaignId}/text`,
  };
}

const campaignSummary: RouteDef = {
  method: 'GET',
  pattern: '/email/campaigns/:campaignId/summary',
  handler(req, ctx) {
    const campaign = requireCampaign(ctx.state, req.params.campaignId);
    // "400 generic": a summary exists only once the campaign is sent.
    if (campaign.Status !== 'Sent' || !campaign.Ratios) failStatus(400, `Campaign ${campaign.CampaignID} has not been sent; it has no summary.`);
    const recipients = effectiveRecipients(ctx, campaign);
    const r = campaign.Ratios;
    const of = (ratio: number) => Math.round(recipients * ratio);
    const urls = pageUrls(campaign.CampaignID);
    return ok({
      Recipients: recipients,
      TotalOpened: of(r.TotalOpened),
      Clicks: of(r.Clicks),
      Unsubscribed: unsubscribeCount(ctx, campaign),
      Bounced: of(r.Bounced),
      UniqueOpened: of(r.UniqueOpened),
      SpamComplaints: of(r.SpamComplaints),
      Forwards: of(r.Forwards),
      Likes: of(r.Likes),
      Mentions: of(r.Mentions),
      WebVersionURL: urls.WebVersionURL,
      WebVersionTextURL: urls.WebVersionTextURL,
      WorldviewURL: urls.WorldviewURL,
    });
  },
};

const scheduledCampaigns: RouteDef = {
  method: 'GET',
  pattern: '/email/clients/scheduled',
  handler(_req, ctx) {
    // Soonest first.
    const scheduled = Object.values(ctx.state.campaigns)
      .filter((c) => c.Status === 'Scheduled')
      .sort((a, b) => Date.parse(a.DateScheduled ?? '') - Date.parse(b.DateScheduled ?? '') || a.CampaignID.localeCompare(b.CampaignID));
    return ok(
      scheduled.map((c) => ({
        DateScheduled: serviceDateTime(c.DateScheduled!),
        ScheduledTimeZone: c.ScheduledTimeZone,
        CampaignID: c.CampaignID,
        Name: c.Name,
        Subject: c.Subject,
        DateCreated: serviceDateTime(c.DateCreated),
        PreviewURL: pageUrls(c.CampaignID).PreviewURL,
        PreviewTextURL: pageUrls(c.CampaignID).PreviewTextURL,
        FromName: c.FromName,
        FromEmail: c.FromEmail,
        ReplyTo: c.ReplyTo,
      })),
    );
  },
};

const sentCampaigns: RouteDef = {
  method: 'GET',
  pattern: '/email/clients/campaigns',
  handler(_req, ctx) {
    // Most recent first.
    const sent = Object.values(ctx.state.campaigns)
      .filter((c) => c.Status === 'Sent')
      .sort((a, b) => Date.parse(b.SentDate ?? '') - Date.parse(a.SentDate ?? '') || a.CampaignID.localeCompare(b.CampaignID));
    return ok(
      sent.map((c) => ({
        WebVersionURL: pageUrls(c.CampaignID).WebVersionURL,
        WebVersionTextURL: pageUrls(c.CampaignID).WebVersionTextURL,
        CampaignID: c.CampaignID,
        Subject: c.Subject,
        Name: c.Name,
        FromName: c.FromName,
        FromEmail: c.FromEmail,
        ReplyTo: c.ReplyTo,
        SentDate: serviceDateTime(c.SentDate!),
        TotalRecipients: effectiveRecipients(ctx, c),
      })),
    );
  },
};

export const routes: RouteDef[] = [createDraft, sendPreview, unschedule, campaignUnsubscribes, campaignSummary, scheduledCampaigns, sentCampaigns];
