// Transactional (smart) emails (service-spec.md "Smart email list element",
// "Smart email details", "Email statistics", "Endpoints" → "Transactional",
// codes 920-926, 932, 993, 994).
import { canonicalId, isUuid } from '../identifiers.js';
import { serviceDateTime } from '../dates.js';
import { failCoded, ok, type RouteDef, type SandboxContext } from '../router.js';
import { parseRuleDate } from '../segment-rules.js';
import { campaignAccount } from '../seed-campaigns.js';
import type { SandboxSmartEmail } from '../types-campaigns.js';

/**
 * Query parameter of the statistics call that filters by smart email. The
 * spec says "Name of the query parameter filtering by smart email ID (a valid
 * GUID, else 925): not shown"; the sandbox uses `smartEmailID`, spelled like
 * the spec's path parameter {smartEmailID}.
 */
export const STATISTICS_SMART_EMAIL_PARAM = 'smartEmailID';

/** service-spec.md "Email statistics" query: from defaults to 29 days before today. */
const STATISTICS_DEFAULT_SPAN_DAYS = 29;

const TRANSACTIONAL_MESSAGES = {
  920: 'Invalid from date: use YYYY-MM-DD.',
  921: 'The from date is after the to date.',
  922: 'Invalid to date: use YYYY-MM-DD.',
  923: 'Invalid time zone: use utc or client.',
  924: 'Give a group or a smart email ID, not both.',
  925: 'Invalid smart email ID: not a GUID.',
  926: 'Smart email not found.',
  932: 'Invalid status: use all, active or draft.',
  993: 'Transactional email requires custom sending authentication on the account.',
  994: 'The sending domain must match the authenticated domain.',
} as const;

/** service-spec.md "Authentication" rule 4: account-setup conditions, modelled by flags on the account (seed-campaigns.ts). */
function requireTransactionalSetup(ctx: SandboxContext): void {
  const account = campaignAccount(ctx.state);
  if (!account.customSendingAuthentication) failCoded(993, TRANSACTIONAL_MESSAGES[993]);
  if (!account.sendingDomainMatches) failCoded(994, TRANSACTIONAL_MESSAGES[994]);
}

function given(query: Record<string, string>, name: string): string | undefined {
  const value = query[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

const listSmartEmails: RouteDef = {
  method: 'GET',
  pattern: '/email/transactional/smartEmail',
  handler(req, ctx) {
    requireTransactionalSetup(ctx);
    // status: all, active or draft (932); default all. Matched without regard to case.
    const status = (given(req.query, 'status') ?? 'all').toLowerCase();
    if (status !== 'all' && status !== 'active' && status !== 'draft') failCoded(932, `${TRANSACTIONAL_MESSAGES[932]} (${req.query.status})`);
    const emails = Object.values(ctx.state.smartEmails)
      .filter((e) => status === 'all' || e.Status.toLowerCase() === status)
      // Newest first.
      .sort((a, b) => Date.parse(b.CreatedAt) - Date.parse(a.CreatedAt) || a.ID.localeCompare(b.ID));
    return ok(emails.map((e) => ({ ID: e.ID, Name: e.Name, CreatedAt: serviceDateTime(e.CreatedAt), Status: e.Status })));
  },
};

function details(e: SandboxSmartEmail) {
  const preview = `https://transactional.sandbox.invalid/preview/${e.ID}`;
  return {
    SmartEmailID: e.ID,
    CreatedAt: serviceDateTime(e.CreatedAt),
    Status: e.Status,
    Name: e.Name,
    Properties: {
      From: e.From,
      ReplyTo: e.ReplyTo,
      Subject: e.Subject,
      Content: { Html: e.Html, Text: e.Text, EmailVariables: e.EmailVariables, InlineCss: e.InlineCss },
      TextPreviewUrl: `${preview}/text`,
      HtmlPreviewUrl: `${preview}/html`,
    },
    AddRecipientsToList: e.AddRecipientsToList,
  };
}

const smartEmailDetails: RouteDef = {
  method: 'GET',
  pattern: '/email/transactional/smartEmail/:smartEmailID',
  handler(req, ctx) {
    requireTransactionalSetup(ctx);
    const id = req.params.smartEmailID;
    // The spec lists 926 (not 925) for this call: an id that is not a GUID cannot be found either.
    const key = canonicalId(id);
    const email = isUuid(id) && Object.hasOwn(ctx.state.smartEmails, key) ? ctx.state.smartEmails[key] : undefined;
    if (!email) failCoded(926, `${TRANSACTIONAL_MESSAGES[926]} (${id})`);
    return ok(details(email));
  },
};

/** YYYY-MM-DD strictly, a real calendar day. */
function parseQueryDate(text: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseRuleDate(text) : undefined;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const statistics: RouteDef = {
  method: 'GET',
  pattern: '/email/transactional/statistics',
  handler(req, ctx) {
    requireTransactionalSetup(ctx);
    const q = req.query;
    const group = given(q, 'group');
    const smartEmailId = given(q, STATISTICS_SMART_EMAIL_PARAM);
    if (smartEmailId !== undefined && !isUuid(smartEmailId)) failCoded(925, `${TRANSACTIONAL_MESSAGES[925]} (${smartEmailId})`);
    if (group !== undefined && smartEmailId !== undefined) failCoded(924, TRANSACTIONAL_MESSAGES[924]);
    // Days are in the client's time zone; the sandbox's client time zone is UTC (dates.ts), so utc and client give the same days.
    const today = ctx.now().toISOString().slice(0, 10);
    const fromText = given(q, 'from');
    const from = fromText === undefined ? addDays(today, -STATISTICS_DEFAULT_SPAN_DAYS) : parseQueryDate(fromText);
    if (from === undefined) failCoded(920, `${TRANSACTIONAL_MESSAGES[920]} (${fromText})`);
    const toText = given(q, 'to');
    const to = toText === undefined ? today : parseQueryDate(toText);
    if (to === undefined) failCoded(922, `${TRANSACTIONAL_MESSAGES[922]} (${toText})`);
    if (from > to) failCoded(921, `${TRANSACTIONAL_MESSAGES[921]} (${from} > ${to})`);
    const timeZone = (given(q, 'timezone') ?? 'client').toLowerCase();
    if (timeZone !== 'utc' && timeZone !== 'client') failCoded(923, `${TRANSACTIONAL_MESSAGES[923]} (${q.timezone})`);

    const totals = { Sent: 0, Bounces: 0, Delivered: 0, Opened: 0, Clicked: 0 };
    for (const r of ctx.state.sendRecords) {
      if (r.Date < from || r.Date > to) continue;
      if (group !== undefined && r.Group !== group) continue;
      if (smartEmailId !== undefined && r.SmartEmailID?.toLowerCase() !== smartEmailId.toLowerCase()) continue;
      totals.Sent += r.Sent;
      totals.Bounces += r.Bounces;
      totals.Delivered += r.Delivered;
      totals.Opened += r.Opened;
      totals.Clicked += r.Clicked;
    }
    // The Query echo shows the effective values, defaults included.
    const query: Record<string, string> = {};
    if (group !== undefined) query.Group = group;
    if (smartEmailId !== undefined) query.SmartEmailID = smartEmailId;
    query.From = from;
    query.To = to;
    query.TimeZone = timeZone;
    return ok({ Query: query, ...totals });
  },
};

export const routes: RouteDef[] = [listSmartEmails, smartEmailDetails, statistics];
