// The status and permission columns of vendors' exports (CLI.md "What a file
// means"): a row marked unsubscribed, cleaned, bounced or without permission
// is not sent unless --include-unsubscribed. docs/import.md lists the headers.
import { FALSE_WORDS, normalizeValue, TRUE_WORDS } from '../validation/subscriber-fields.js';

export type StatusCode = 'unsubscribed' | 'cleaned' | 'bounced' | 'no-permission';

/** Counted as rejected and skipped. */
export const STATUS_CODES: ReadonlySet<string> = new Set<StatusCode>(['unsubscribed', 'cleaned', 'bounced', 'no-permission']);

/**
 * How a column's cells are read:
 * - `date`: any value marks the row (Mailchimp's UNSUB_TIME, beehiiv's unsubscribed_at);
 * - `optin`: yes keeps the row, no marks it (Shopify's Accepts Email Marketing);
 * - `optout`: yes (or a date) marks the row, no keeps it (HubSpot's Unsubscribed from all email);
 * - `status`: a word (active, unsubscribed, cleaned, pending, …).
 */
type Reading = 'date' | 'optin' | 'optout' | 'status';

export interface StatusColumn {
  index: number;
  header: string;
  reading: Reading;
  code: StatusCode;
  /** For people: the export it comes from, or what kind of column it is. */
  format: string;
}

interface Rule {
  reading: Reading;
  code: StatusCode;
  format: string;
}

const MAILCHIMP_UNSUBSCRIBED = 'Mailchimp unsubscribed export';
const HUBSPOT = 'HubSpot contacts export';

/** Headers compared lower-cased without spaces, `_`, `-`, `.` and `:`. */
const RULES = new Map<string, Rule>([
  ['unsubtime', { reading: 'date', code: 'unsubscribed', format: MAILCHIMP_UNSUBSCRIBED }],
  ['cleantime', { reading: 'date', code: 'cleaned', format: 'Mailchimp cleaned export' }],
  ['unsubscribedat', { reading: 'date', code: 'unsubscribed', format: 'unsubscribe date (beehiiv and others)' }],
  ...['unsubscribeddate', 'unsubscribedon', 'unsubscribedate', 'unsubdate', 'optoutdate'].map((h) => [h, { reading: 'date', code: 'unsubscribed', format: 'unsubscribe date' }] as const),
  ...['cleanedat', 'cleaneddate'].map((h) => [h, { reading: 'date', code: 'cleaned', format: 'cleaned date' }] as const),
  ...['bouncedat', 'bounceddate'].map((h) => [h, { reading: 'date', code: 'bounced', format: 'bounce date' }] as const),
  ['acceptsemailmarketing', { reading: 'optin', code: 'no-permission', format: 'Shopify customers export' }],
  ...['acceptsmarketing', 'optin', 'optedin', 'emailoptin', 'marketingoptin', 'emailmarketingoptin', 'acceptsemail'].map(
    (h) => [h, { reading: 'optin', code: 'no-permission', format: 'marketing permission' }] as const,
  ),
  ...['subscribed', 'issubscribed', 'emailsubscribed'].map((h) => [h, { reading: 'optin', code: 'unsubscribed', format: 'subscribed flag' }] as const),
  ['unsubscribedfromallemail', { reading: 'optout', code: 'unsubscribed', format: HUBSPOT }],
  // Substack's email_list.*.csv: email,active_subscription,expiry,plan,email_disabled,created_at,…
  ['emaildisabled', { reading: 'optout', code: 'unsubscribed', format: 'Substack export' }],
  ...['unsubscribed', 'isunsubscribed', 'optout', 'optedout', 'emailoptout', 'emailoptedout', 'hasoptedout', 'donotemail'].map(
    (h) => [h, { reading: 'optout', code: 'unsubscribed', format: 'unsubscribed flag' }] as const,
  ),
  ...['bounced', 'isbounced', 'hardbounced'].map((h) => [h, { reading: 'optout', code: 'bounced', format: 'bounced flag' }] as const),
  ['cleaned', { reading: 'optout', code: 'cleaned', format: 'cleaned flag' }],
  ['marketingcontactstatus', { reading: 'status', code: 'no-permission', format: HUBSPOT }],
  ...['status', 'subscriptionstatus', 'subscriberstatus', 'emailstatus', 'memberstatus', 'emailsubscriptionstatus', 'emailmarketingstatus', 'emailmarketingconsent', 'emailmarketingconsentstate'].map(
    (h) => [h, { reading: 'status', code: 'unsubscribed', format: 'status column' }] as const,
  ),
]);

const HUBSPOT_OPT_OUT_PREFIX = 'optedoutofemail';

function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(/[\s_.:-]+/g, '');
}

/** A column --map names is the user's to decide; one --only-mapped leaves out is still read. */
export function findStatusColumns(plan: { columns: readonly { index: number; header: string; target: string; source: string }[] }): StatusColumn[] {
  const found: StatusColumn[] = [];
  for (const c of plan.columns) {
    if (c.source === 'map' || c.source === 'failures file' || c.source === 'empty header') continue;
    if (c.target === 'EmailAddress' || c.target === 'Name' || c.target === 'ConsentToTrack') continue;
    const h = normalizeHeader(c.header);
    const rule = RULES.get(h) ?? (h.startsWith(HUBSPOT_OPT_OUT_PREFIX) ? { reading: 'optout' as const, code: 'unsubscribed' as const, format: HUBSPOT } : undefined);
    if (rule) found.push({ index: c.index, header: c.header.trim(), ...rule });
  }
  return found;
}

// ---- values ----------------------------------------------------------------------

const OPTED_IN = new Set(['opted in', 'opt in', 'optin', 'subscribed', 'granted', 'confirmed', 'single opt in', 'double opt in', 'confirmed opt in']);
const OPTED_OUT = new Set(['opted out', 'opt out', 'optout', 'unsubscribed', 'not subscribed', 'denied', 'revoked']);
const DATE_LIKE = /^(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})/;

const STATUS_WORDS = new Map<string, StatusCode | ''>([
  ...['active', 'subscribed', 'confirmed', 'opted in', 'opt in', 'optin', 'valid', 'enabled', 'single opt in', 'double opt in', 'confirmed opt in', 'marketing contact'].map(
    (w) => [w, ''] as const,
  ),
  ...['unsubscribed', 'inactive', 'opted out', 'opt out', 'optout', 'complained', 'spam', 'spam complaint', 'suppressed', 'blocked', 'blocklisted', 'blacklisted', 'disabled'].map(
    (w) => [w, 'unsubscribed'] as const,
  ),
  ...['cleaned', 'invalid'].map((w) => [w, 'cleaned'] as const),
  ...['bounced', 'bounce', 'hard bounce', 'hard bounced', 'hardbounce'].map((w) => [w, 'bounced'] as const),
  ...['pending', 'unconfirmed', 'not subscribed', 'never subscribed', 'non subscribed', 'transactional', 'validating', 'archived', 'non marketing contact', 'not opted in'].map(
    (w) => [w, 'no-permission'] as const,
  ),
]);

/** '' (sent: an empty cell never keeps a row back), or null (unreadable). */
export function readStatus(column: StatusColumn, raw: string | undefined): StatusCode | '' | null {
  if (raw === undefined || raw === '') return '';
  const value = normalizeValue(raw);
  if (value === '') return '';
  switch (column.reading) {
    case 'date':
      return FALSE_WORDS.has(value) || value === 'null' || value === 'never' ? '' : column.code;
    case 'optin':
      if (TRUE_WORDS.has(value) || OPTED_IN.has(value)) return '';
      if (FALSE_WORDS.has(value) || OPTED_OUT.has(value)) return column.code;
      return value === 'pending' ? 'no-permission' : null;
    case 'optout':
      if (TRUE_WORDS.has(value) || DATE_LIKE.test(value)) return column.code;
      return FALSE_WORDS.has(value) ? '' : null;
    case 'status': {
      const code = STATUS_WORDS.get(value);
      return code === undefined ? null : code;
    }
  }
}

export function statusMessage(column: StatusColumn, cell: string, code: StatusCode): string {
  const what = code === 'no-permission' ? 'no marketing permission' : code;
  return `${column.header} is "${cell.trim()}" (${column.format}): ${what}, not sent; --include-unsubscribed sends it`;
}

export function readableValues(column: StatusColumn): string {
  switch (column.reading) {
    case 'date':
      return 'any value';
    case 'optin':
      return 'yes/no, true/false, 1/0, y/n, opted in/opted out';
    case 'optout':
      return 'yes/no, true/false, 1/0, y/n, or a date';
    case 'status':
      return 'active, subscribed, unsubscribed, inactive, cleaned, bounced, pending, transactional, archived, marketing contact, non-marketing contact, …';
  }
}
