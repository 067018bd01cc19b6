// Responses of the campaign endpoints (service-spec.md "Campaigns"). Loose objects: extra fields
// pass and values are never rewritten, so JSON output is the service's data unchanged.
import * as z from 'zod/mini';
import { DATE_TIME, field, id, lenientInt } from './common.js';

/** The spec's object of ids, or the bare id string the real service answers (CLI.md "lenient reading"). */
export const createCampaignResponse = z.union([id, z.record(z.string(), z.nullable(z.string()))]);
export type CreateCampaignResponse = z.infer<typeof createCampaignResponse>;

export const unsubscriberRecord = z.looseObject({
  EmailAddress: z.string(),
  ListID: z.optional(z.nullable(z.string())),
  Date: z.optional(z.nullable(z.string())),
  IPAddress: z.optional(z.nullable(z.string())),
});
export type UnsubscriberRecord = z.infer<typeof unsubscriberRecord>;

/** The field and what was expected there; response-issues.ts adds what came. */
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
 * Checked in place, not parsed into copies: copies doubled what each page of an `--all` window
 * costs the heap. The first record that does not fit is still named (CLI.md "lenient reading").
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

/** The walk (--all) relies on NumberOfPages and TotalNumberOfRecords. */
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

/** An array in the spec; the real service answers the paged envelope (CLI.md "lenient reading"). */
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
