// Responses of the campaign endpoints (service-spec.md "Campaigns" and the
// resources they return). Loose objects: extra fields pass, values are never
// rewritten (JSON output is the service's data unchanged).
import * as z from 'zod/mini';
import { DATE_TIME, field, id, lenientInt } from './common.js';

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

/**
 * What is wrong with one record, as the field and what was expected there
 * (core/response-issues.ts adds what came); undefined when it fits
 * "Campaign unsubscriber record": EmailAddress a string; ListID, Date and
 * IPAddress absent, null, or of their kind.
 */
function recordProblem(value: unknown): { field?: string; expected: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { expected: 'expected an unsubscriber record (an object)' };
  const r = value as Record<string, unknown>;
  if (typeof r.EmailAddress !== 'string') return { field: 'EmailAddress', expected: 'expected an email address' };
  const absent = (v: unknown) => v === undefined || v === null;
  if (!absent(r.ListID) && typeof r.ListID !== 'string') return { field: 'ListID', expected: 'expected an id' };
  if (!absent(r.Date) && !(typeof r.Date === 'string' && DATE_TIME.test(r.Date))) return { field: 'Date', expected: 'expected a date' };
  if (!absent(r.IPAddress) && typeof r.IPAddress !== 'string') return { field: 'IPAddress', expected: 'expected an IP address' };
  return undefined;
}

/**
 * Results checked in place rather than parsed into copies: `--all` holds a
 * window of 1,000-record pages, and copying every record doubled what each
 * page costs the heap (bench/unsubscribes.bench.mjs, peak RSS bar). Every
 * field is checked all the same (CLI.md "lenient reading"): the first record
 * that does not fit is named with its field, `Results[3].Date: expected a
 * date, got 17`, rather than printed as if it were fine.
 */
const unsubscriberRecords = z
  .custom<UnsubscriberRecord[]>((value) => Array.isArray(value), 'expected an array of unsubscriber records')
  .check(
    z.superRefine((records, ctx) => {
      for (let i = 0; i < records.length; i++) {
        const problem = recordProblem(records[i]);
        if (!problem) continue;
        ctx.issues.push({ code: 'custom', message: problem.expected, input: records[i], path: problem.field ? [i, problem.field] : [i] });
        return;
      }
    }),
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
