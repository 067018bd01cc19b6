// Seed of the campaign side. Ids and past dates are fixed; schedules and send records sit relative
// to `now` so schedules lie ahead and the statistics defaults find data. Unsubscribe records are
// generated from their index, so a great many cost no state file space and no seeding time.
import { seededRandom } from './faults.js';
import { SEED_LIST_IDS, SEED_SENT_CAMPAIGN } from './seed-ids.js';
import type { State } from './types.js';
import type {
  CampaignAccountSettings,
  RuleGroupDefinition,
  SandboxCampaign,
  SandboxSegment,
  SandboxSendRecord,
  SandboxSmartEmail,
  SummaryRatios,
} from './types-campaigns.js';

/**
 * service-spec.md "Limits": the API segment limit is per account, value not
 * shown. The sandbox allows 100 segments created through the API.
 */
const DEFAULT_SEGMENT_LIMIT = 100;
/**
 * service-spec.md "Limits": "test campaigns and previews: limited number per
 * customer", value not shown. The sandbox allows 500 preview sends.
 */
const DEFAULT_TEST_CAMPAIGN_ALLOWANCE = 500;

function defaultCampaignAccount(): CampaignAccountSettings {
  return {
    segmentLimit: DEFAULT_SEGMENT_LIMIT,
    testCampaignAllowance: DEFAULT_TEST_CAMPAIGN_ALLOWANCE,
    testCampaignsUsed: 0,
    customSendingAuthentication: true,
    sendingDomainMatches: true,
  };
}

/** The account settings of the campaign side, created with defaults on first use (state files of older builds lack them). */
export function campaignAccount(state: State): CampaignAccountSettings {
  return (state.campaignAccount ??= defaultCampaignAccount());
}

export const SEED_SEGMENT_IDS = {
  newsletterEngaged: '5e000000-0000-4000-8000-000000000001',
  newsletterUnengaged: '5e000000-0000-4000-8000-000000000002',
  customersEngaged: '5e000000-0000-4000-8000-000000000003',
  customersUnengaged: '5e000000-0000-4000-8000-000000000004',
  earlyAccessEngaged: '5e000000-0000-4000-8000-000000000005',
  earlyAccessUnengaged: '5e000000-0000-4000-8000-000000000006',
  /** API segment: [Plan] EQUALS Pro. */
  newsletterPro: '5e000000-0000-4000-8000-000000000011',
  /** API segment: example.com addresses AND subscribed after 2024/01/11. */
  newsletterRecentExample: '5e000000-0000-4000-8000-000000000012',
  /** API segment: [Tier] EQUALS Gold. */
  customersGold: '5e000000-0000-4000-8000-000000000013',
} as const;

export const SEED_CAMPAIGN_IDS = {
  /** Sent; carries the full `unsubscribesPerCampaign` unsubscribe records. The campaign of the seeded subscriber histories. */
  welcome: SEED_SENT_CAMPAIGN.CampaignID,
  februaryUpdate: 'c0000000-0000-4000-8000-000000000002',
  springSale: 'c0000000-0000-4000-8000-000000000003',
  /** Scheduled; the one the docs unschedule. */
  summerLaunch: 'c0000000-0000-4000-8000-000000000011',
  customerSurvey: 'c0000000-0000-4000-8000-000000000012',
  earlyAccessInvite: 'c0000000-0000-4000-8000-000000000013',
  autumnDraft: 'c0000000-0000-4000-8000-000000000021',
  /** Draft targeting the Pro-plan segment. */
  proOfferDraft: 'c0000000-0000-4000-8000-000000000022',
  /** Draft without content: a preview answers 376. */
  contentlessDraft: 'c0000000-0000-4000-8000-000000000023',
} as const;

export const SEED_SMART_EMAIL_IDS = {
  passwordReset: '5a000000-0000-4000-8000-000000000001',
  orderConfirmation: '5a000000-0000-4000-8000-000000000002',
  welcomeDraft: '5a000000-0000-4000-8000-000000000003',
} as const;

/** Classic transactional email groups with send records. */
const SEED_EMAIL_GROUPS = ['Password Reset', 'Receipts', 'Shipping Notices'] as const;

/** Days of send records before (and including) the seeding day. */
const SEND_RECORD_DAYS = 60;

const DAY_MS = 86_400_000;

function segment(SegmentID: string, ListID: string, Title: string, RuleGroups: RuleGroupDefinition[], System: SandboxSegment['System'] = null): SandboxSegment {
  return { SegmentID, ListID, Title, RuleGroups, System, CreatedAt: '2024-01-15T09:30:00.000Z' };
}

const RATIOS: SummaryRatios = {
  UniqueOpened: 0.42,
  TotalOpened: 0.61,
  Clicks: 0.09,
  Bounced: 0.012,
  SpamComplaints: 0.0004,
  Forwards: 0.003,
  Likes: 0.002,
  Mentions: 0.001,
};

interface CampaignSeed {
  CampaignID: string;
  Name: string;
  Subject: string;
  ListIDs?: string[];
  SegmentIDs?: string[];
  HtmlUrl?: string;
  DateCreated: string;
}

function campaign(seed: CampaignSeed): SandboxCampaign {
  return {
    CampaignID: seed.CampaignID,
    Name: seed.Name,
    Status: 'Draft',
    Subject: seed.Subject,
    FromName: 'Example Newsletter',
    FromEmail: 'news@example.com',
    ReplyTo: 'replies@example.com',
    HtmlUrl: seed.HtmlUrl ?? `https://content.example.com/campaigns/${seed.CampaignID}.html`,
    TextUrl: null,
    ListIDs: seed.ListIDs ?? [],
    SegmentIDs: seed.SegmentIDs ?? [],
    DateCreated: seed.DateCreated,
    DateScheduled: null,
    ScheduledTimeZone: null,
    SentDate: null,
    Recipients: 0,
    Ratios: null,
    Unsubscribes: null,
  };
}

function sent(c: SandboxCampaign, SentDate: string, Recipients: number, share: number, seed: number): SandboxCampaign {
  return { ...c, Status: 'Sent', SentDate, Recipients, Ratios: { ...RATIOS }, Unsubscribes: { Seed: seed, Share: share } };
}

function scheduled(c: SandboxCampaign, DateScheduled: Date, ScheduledTimeZone: string): SandboxCampaign {
  return { ...c, Status: 'Scheduled', DateScheduled: DateScheduled.toISOString(), ScheduledTimeZone };
}

/** Day `n` days after `now` at hh:mm UTC. */
function daysFrom(now: Date, n: number, hh: number, mm = 0): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + n, hh, mm));
  return d;
}

export function seedCampaigns(state: State, now: Date): void {
  state.campaignAccount = defaultCampaignAccount();
  const L = SEED_LIST_IDS;
  const S = SEED_SEGMENT_IDS;
  const segments: SandboxSegment[] = [
    // service-spec.md "Segment" rule 4: engagement segments are provided by default.
    segment(S.newsletterEngaged, L.newsletter, 'Engaged subscribers', [], 'Engaged'),
    segment(S.newsletterUnengaged, L.newsletter, 'Unengaged subscribers', [], 'Unengaged'),
    segment(S.customersEngaged, L.customers, 'Engaged subscribers', [], 'Engaged'),
    segment(S.customersUnengaged, L.customers, 'Unengaged subscribers', [], 'Unengaged'),
    segment(S.earlyAccessEngaged, L.earlyAccess, 'Engaged subscribers', [], 'Engaged'),
    segment(S.earlyAccessUnengaged, L.earlyAccess, 'Unengaged subscribers', [], 'Unengaged'),
    segment(S.newsletterPro, L.newsletter, 'Pro plan', [{ Rules: [{ RuleType: '[Plan]', Clause: 'EQUALS Pro' }] }]),
    segment(S.newsletterRecentExample, L.newsletter, 'example.com, joined after 11 January', [
      { Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @example.com' }] },
      { Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/11' }] },
    ]),
    segment(S.customersGold, L.customers, 'Gold tier', [{ Rules: [{ RuleType: '[Tier]', Clause: 'EQUALS Gold' }] }]),
  ];
  for (const s of segments) state.segments[s.SegmentID] = s;

  const C = SEED_CAMPAIGN_IDS;
  const campaigns: SandboxCampaign[] = [
    // Sent first: the first sent campaign carries the full unsubscribe count.
    sent(
      campaign({ CampaignID: C.welcome, Name: SEED_SENT_CAMPAIGN.Name, Subject: 'Welcome aboard', ListIDs: [L.newsletter], DateCreated: '2024-01-30T14:00:00.000Z' }),
      '2024-02-01T10:00:00.000Z',
      148_210,
      1,
      101,
    ),
    sent(
      campaign({ CampaignID: C.februaryUpdate, Name: 'February Product Update', Subject: 'What is new in February', ListIDs: [L.customers], DateCreated: '2024-02-18T08:00:00.000Z' }),
      '2024-02-20T09:00:00.000Z',
      12_940,
      0.1,
      102,
    ),
    sent(
      campaign({ CampaignID: C.springSale, Name: 'Spring Sale', Subject: 'Spring sale: 20% off', ListIDs: [L.newsletter, L.customers], DateCreated: '2024-03-12T11:00:00.000Z' }),
      '2024-03-15T07:30:00.000Z',
      61_005,
      0.04,
      103,
    ),
    scheduled(
      campaign({ CampaignID: C.summerLaunch, Name: 'Summer Launch', Subject: 'Our summer collection', ListIDs: [L.newsletter], DateCreated: '2024-04-02T10:00:00.000Z' }),
      daysFrom(now, 7, 9),
      '(GMT) Dublin, Edinburgh, Lisbon, London',
    ),
    scheduled(
      campaign({ CampaignID: C.customerSurvey, Name: 'Customer Survey', Subject: 'Two minutes for us?', SegmentIDs: [S.customersGold], DateCreated: '2024-04-03T10:00:00.000Z' }),
      daysFrom(now, 14, 15, 30),
      '(GMT-05:00) Eastern Time (US & Canada)',
    ),
    scheduled(
      campaign({ CampaignID: C.earlyAccessInvite, Name: 'Early Access Invite', Subject: 'You are in', ListIDs: [L.earlyAccess], DateCreated: '2024-04-04T10:00:00.000Z' }),
      daysFrom(now, 3, 6),
      '(GMT+10:00) Canberra, Melbourne, Sydney',
    ),
    campaign({ CampaignID: C.autumnDraft, Name: 'Autumn Newsletter (draft)', Subject: 'Autumn news', ListIDs: [L.newsletter], DateCreated: '2024-04-10T10:00:00.000Z' }),
    campaign({ CampaignID: C.proOfferDraft, Name: 'Pro Offer (draft)', Subject: 'An offer for Pro users', SegmentIDs: [S.newsletterPro], DateCreated: '2024-04-11T10:00:00.000Z' }),
    campaign({ CampaignID: C.contentlessDraft, Name: 'Untitled (draft without content)', Subject: 'TBD', ListIDs: [L.customers], HtmlUrl: '', DateCreated: '2024-04-12T10:00:00.000Z' }),
  ];
  for (const c of campaigns) state.campaigns[c.CampaignID] = c;

  const E = SEED_SMART_EMAIL_IDS;
  const smartEmails: SandboxSmartEmail[] = [
    smartEmail(E.passwordReset, 'Password reset', 'Active', '2024-01-05T12:00:00.000Z', 'Reset your password', ['firstname', 'reset_url']),
    smartEmail(E.orderConfirmation, 'Order confirmation', 'Active', '2024-01-06T12:00:00.000Z', 'Your order {{order_id}}', ['firstname', 'order_id', 'total']),
    smartEmail(E.welcomeDraft, 'Welcome series (draft)', 'Draft', '2024-03-01T12:00:00.000Z', 'Welcome, {{firstname}}', ['firstname']),
  ];
  for (const e of smartEmails) state.smartEmails[e.ID] = e;

  state.sendRecords = sendRecords(now, [...SEED_EMAIL_GROUPS], [E.passwordReset, E.orderConfirmation]);
}

function smartEmail(ID: string, Name: string, Status: SandboxSmartEmail['Status'], CreatedAt: string, Subject: string, EmailVariables: string[]): SandboxSmartEmail {
  const vars = EmailVariables.map((v) => `{{${v}}}`).join(' ');
  return {
    ID,
    Name,
    Status,
    CreatedAt,
    From: 'Example Store <store@example.com>',
    ReplyTo: 'support@example.com',
    Subject,
    Html: `<html><body><h1>${Name}</h1><p>${vars}</p></body></html>`,
    Text: `${Name}\n\n${vars}\n`,
    EmailVariables,
    InlineCss: true,
    AddRecipientsToList: SEED_LIST_IDS.customers,
  };
}

/** One record per day for each group and each smart email, the last SEND_RECORD_DAYS days up to `now`'s day. */
function sendRecords(now: Date, groups: string[], smartEmailIds: string[]): SandboxSendRecord[] {
  const random = seededRandom(20240101);
  const records: SandboxSendRecord[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let back = SEND_RECORD_DAYS - 1; back >= 0; back--) {
    const Date_ = new Date(today - back * DAY_MS).toISOString().slice(0, 10);
    const sources: [string | null, string | null][] = [...groups.map((g): [string, null] => [g, null]), ...smartEmailIds.map((id): [null, string] => [null, id])];
    for (const [Group, SmartEmailID] of sources) {
      const Sent = 40 + Math.floor(random() * 260);
      const Bounces = Math.floor(Sent * (0.005 + random() * 0.025));
      const Delivered = Sent - Bounces;
      const Opened = Math.floor(Delivered * (0.35 + random() * 0.3));
      const Clicked = Math.floor(Opened * (0.1 + random() * 0.2));
      records.push({ Date: Date_, Group, SmartEmailID, Sent, Bounces, Delivered, Opened, Clicked });
    }
  }
  return records;
}

// ---- generated unsubscribe records -------------------------------------------------------

/** A 32-bit hash of (seed, index, salt), so record i can be computed on its own. */
function hash32(seed: number, index: number, salt: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35) ^ Math.imul(salt, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

const FIRST_NAMES = ['Ada', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Grace', 'Hedy', 'Ivan', 'Joan', 'Ken', 'Leslie', 'Margaret', 'Niklaus', 'Radia', 'Sophie', 'Tim', 'Whitfield', 'Yukihiro'];
const LAST_NAMES = ['Allen', 'Backus', 'Cerf', 'Dijkstra', 'Engelbart', 'Floyd', 'Goldberg', 'Hopper', 'Iverson', 'Jones', 'Knuth', 'Liskov', 'McCarthy', 'Naur', 'Perlman', 'Ritchie', 'Sutherland', 'Thompson', 'Wilson', 'Zuse'];
const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example', 'inbox.example'];
const IP_PREFIXES = ['192.0.2.', '198.51.100.', '203.0.113.'];
/** Unsubscribes fall within this time after the send, denser early on. */
const UNSUBSCRIBE_SPREAD_MS = 30 * DAY_MS;

/** Column-wise arrays of a campaign's generated unsubscribe records (index = record number). */
export interface UnsubscribeRecords {
  count: number;
  emails: string[];
  /** The subscriber's name: not part of the record, but the `name` order field sorts by it. */
  names: string[];
  /** Milliseconds since the epoch, whole seconds. */
  dates: Float64Array;
  listIds: string[];
  ips: string[];
}

/**
 * Generates `count` unsubscribe records of a sent campaign. Pure: the same
 * arguments give the same records, so nothing needs storing.
 */
export function generateUnsubscribeRecords(seed: number, count: number, sentDate: string, listIds: readonly string[]): UnsubscribeRecords {
  const sentMs = Date.parse(sentDate);
  const emails = new Array<string>(count);
  const names = new Array<string>(count);
  const listIdsOut = new Array<string>(count);
  const ips = new Array<string>(count);
  const dates = new Float64Array(count);
  const lists = listIds.length ? listIds : ['00000000-0000-4000-8000-000000000000'];
  for (let i = 0; i < count; i++) {
    const a = hash32(seed, i, 1);
    const b = hash32(seed, i, 2);
    const first = FIRST_NAMES[a % FIRST_NAMES.length];
    const last = LAST_NAMES[(a >>> 8) % LAST_NAMES.length];
    names[i] = `${first} ${last}`;
    emails[i] = `${first}.${last}.${i}@${DOMAINS[(a >>> 16) % DOMAINS.length]}`.toLowerCase();
    const u = b / 4294967296;
    dates[i] = sentMs + Math.floor((u * u * UNSUBSCRIBE_SPREAD_MS) / 1000) * 1000 + 60_000;
    listIdsOut[i] = lists[(b >>> 4) % lists.length];
    ips[i] = `${IP_PREFIXES[(b >>> 12) % IP_PREFIXES.length]}${((b >>> 16) % 254) + 1}`;
  }
  return { count, emails, names, dates, listIds: listIdsOut, ips };
}
