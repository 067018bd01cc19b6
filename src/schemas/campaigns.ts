// Responses of the campaign endpoints (service-spec.md "Campaigns" and the
// resources they return). Loose objects: extra fields pass, values are never
// rewritten (JSON output is the service's data unchanged).
import * as z from 'zod/mini';
import { field, id, lenientInt } from './common.js';

/**
 * "Create draft campaign": an object whose keys are the list or segment ids,
 * each with an empty string; the real service answers a bare JSON string,
 * the new campaign's id (CLI.md "lenient reading"). Both are taken.
 */
export const createCampaignResponse = z.union([id, z.record(z.string(), z.nullable(z.string()))]);
export type CreateCampaignResponse = z.infer<typeof createCampaignResponse>;

/** "Campaign unsubscriber record". */
export const unsubscriberRecord = z.looseObject({
  EmailAddress: z.string(),
  ListID: z.optional(z.nullable(z.string())),
  Date: z.optional(z.nullable(z.string())),
  IPAddress: z.optional(z.nullable(z.string())),
});
export type UnsubscriberRecord = z.infer<typeof unsubscriberRecord>;

function isUnsubscriberRecord(value: unknown): value is UnsubscriberRecord {
  return typeof value === 'object' && value !== null && typeof (value as { EmailAddress?: unknown }).EmailAddress === 'string';
}

/**
 * Results checked in place rather than parsed into copies: `--all` holds a
 * window of 1,000-record pages, and copying every record doubled what each
 * page costs the heap (bench/unsubscribes.bench.mjs, peak RSS bar).
 */
const unsubscriberRecords = z.custom<UnsubscriberRecord[]>(
  (value) => Array.isArray(value) && value.every(isUnsubscriberRecord),
  'expected an array of unsubscriber records, each with an EmailAddress',
);

/** "Paged result envelope (campaign unsubscribes)". The walk (--all) relies on NumberOfPages and TotalNumberOfRecords. */
export const unsubscribesPage = z.looseObject({
  Results: unsubscriberRecords,
  ResultsOrderedBy: z.optional(z.nullable(z.string())),
  OrderDirection: z.optional(z.nullable(z.string())),
  PageNumber: lenientInt,
  PageSize: lenientInt,
  RecordsOnThisPage: z.optional(lenientInt),
  TotalNumberOfRecords: lenientInt,
  NumberOfPages: lenientInt,
});
export type UnsubscribesPage = z.infer<typeof unsubscribesPage>;

/** "Campaign summary": counters and URLs. */
export const campaignSummary = z.looseObject({
  Recipients: z.optional(z.nullable(lenientInt)),
  TotalOpened: field,
  Clicks: field,
  Unsubscribed: field,
  Bounced: field,
  UniqueOpened: field,
  SpamComplaints: field,
  Forwards: field,
  Likes: field,
  Mentions: field,
  WebVersionURL: field,
  WebVersionTextURL: field,
  WorldviewURL: field,
});
export type CampaignSummary = z.infer<typeof campaignSummary>;

/** "Scheduled campaign" elements. */
export const scheduledCampaigns = z.array(
  z.looseObject({
    CampaignID: id,
    Name: z.optional(z.nullable(z.string())),
    Subject: field,
    FromName: field,
    FromEmail: field,
    ReplyTo: field,
    DateCreated: field,
    PreviewURL: field,
    PreviewTextURL: field,
    DateScheduled: field,
    ScheduledTimeZone: field,
  }),
);

const sentCampaign = z.looseObject({
  CampaignID: id,
  Name: z.optional(z.nullable(z.string())),
  Subject: field,
  FromName: field,
  FromEmail: field,
  ReplyTo: field,
  WebVersionURL: field,
  WebVersionTextURL: field,
  SentDate: field,
  TotalRecipients: field,
});
export type SentCampaign = z.infer<typeof sentCampaign>;

/**
 * "Sent campaign" elements: an array in the spec; the real service answers
 * the paged envelope instead (Results, PageNumber, NumberOfPages, …; CLI.md
 * "lenient reading"). Both are taken.
 */
export const sentCampaigns = z.union([
  z.array(sentCampaign),
  z.looseObject({
    Results: z.array(sentCampaign),
    PageNumber: z.optional(z.nullable(lenientInt)),
    NumberOfPages: z.optional(z.nullable(lenientInt)),
    TotalNumberOfRecords: z.optional(z.nullable(lenientInt)),
  }),
]);
export type SentCampaigns = z.infer<typeof sentCampaigns>;
