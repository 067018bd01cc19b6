// Campaign-side request checks the request alone allows, with the service's codes, so a mistake
// costs no round trip.
import { INVALID_PREVIEW_RECIPIENTS } from '../schemas/enums.js';
import { UsageError } from '../core/errors.js';
import { isValidEmail } from './email-address.js';
import { checkEmail, checkHttpUrl, checkUuid, requireText } from './option-checks.js';

export interface DraftCampaign {
  Name: string;
  Subject: string;
  FromName: string;
  FromEmail: string;
  ReplyTo: string;
  HtmlUrl: string;
  TextUrl?: string;
  ListIDs?: string[];
  SegmentIDs?: string[];
}

const CAMPAIGN_CODES = {
  nameRequired: 319,
  subjectRequired: 304,
  fromNameRequired: 305,
  invalidFromEmail: 307,
  replyToRequired: 308,
  invalidReplyTo: 309,
  htmlUrlRequired: 310,
  invalidTextUrl: 312,
  invalidListIds: 313,
  invalidSegments: 314,
  listsOrSegmentsRequired: 315,
} as const;

export interface DraftCampaignInput {
  name?: string;
  subject?: string;
  fromName?: string;
  fromEmail?: string;
  replyTo?: string;
  htmlUrl?: string;
  textUrl?: string;
  list: string[];
  segment: string[];
}

export function draftCampaignFrom(opts: DraftCampaignInput): DraftCampaign {
  const C = CAMPAIGN_CODES;
  const Name = requireText(opts.name, '--name', C.nameRequired, 'the campaign name');
  const Subject = requireText(opts.subject, '--subject', C.subjectRequired, 'the subject line');
  const FromName = requireText(opts.fromName, '--from-name', C.fromNameRequired, 'the sender name');
  // The spec has no "from address required" code; a missing address is an invalid one (307).
  const FromEmail = senderAddress(requireText(opts.fromEmail, '--from-email', C.invalidFromEmail, 'the sender address'), '--from-email', C.invalidFromEmail);
  const ReplyTo = senderAddress(requireText(opts.replyTo, '--reply-to', C.replyToRequired, 'the reply-to address'), '--reply-to', C.invalidReplyTo);
  // 310 "HTML URL required": a URL the service cannot fetch is as good as none.
  const HtmlUrl = checkHttpUrl(requireText(opts.htmlUrl, '--html-url', C.htmlUrlRequired, 'the URL of the HTML content'), '--html-url', C.htmlUrlRequired);
  // "If omitted or empty, text content is generated from the HTML. Must be valid if given (error 312)."
  const textUrl = opts.textUrl === undefined || opts.textUrl.trim() === '' ? undefined : checkHttpUrl(opts.textUrl, '--text-url', C.invalidTextUrl);

  const lists = opts.list;
  const segments = opts.segment;
  // "When SegmentIDs is used, ListIDs is to be removed from the request; one of the two must be supplied (error 315)."
  if (lists.length && segments.length) {
    throw new UsageError('give --list or --segment, not both: a campaign goes to lists or to segments', C.listsOrSegmentsRequired);
  }
  if (!lists.length && !segments.length) throw new UsageError('--list or --segment is required: the lists or segments to send to', C.listsOrSegmentsRequired);

  const body: DraftCampaign = { Name, Subject, FromName, FromEmail, ReplyTo, HtmlUrl };
  if (textUrl !== undefined) body.TextUrl = textUrl;
  if (lists.length) body.ListIDs = lists.map((id) => checkUuid(id, '--list', C.invalidListIds));
  else body.SegmentIDs = segments.map((id) => checkUuid(id, '--segment', C.invalidSegments));
  return body;
}

/** A sender holding a personalisation tag is the service's to judge, so the tool never refuses what it takes. */
function senderAddress(value: string, flag: string, code: number): string {
  return value.includes('[') ? value.trim() : checkEmail(value, flag, code);
}

// ---- previews (service-spec.md "Send campaign preview", "Limits") -----------

const NO_PREVIEW_RECIPIENTS = 370;

const TOO_MANY_PREVIEW_RECIPIENTS = 374;
const MAX_PREVIEW_RECIPIENTS = 15;

export function previewRecipientsFrom(given: string[]): string[] {
  const recipients = given.map((a) => a.trim()).filter((a) => a !== '');
  if (!recipients.length) throw new UsageError('--to is required: at least one preview recipient', NO_PREVIEW_RECIPIENTS);
  if (recipients.length > MAX_PREVIEW_RECIPIENTS) {
    throw new UsageError(`at most ${MAX_PREVIEW_RECIPIENTS} preview recipients per call; got ${recipients.length}`, TOO_MANY_PREVIEW_RECIPIENTS);
  }
  const invalid = recipients.filter((a) => !isValidEmail(a));
  if (invalid.length) {
    throw new UsageError(`invalid preview recipient address${invalid.length > 1 ? 'es' : ''}: ${invalid.map((a) => `"${a}"`).join(', ')}`, INVALID_PREVIEW_RECIPIENTS);
  }
  return recipients;
}

// ---- templates (service-spec.md "Template (create request)") ----------------

export interface TemplateRequest {
  Name: string;
  HtmlPageURL: string;
  ZipFileURL: string;
}

export const TEMPLATE_CODES = {
  nameRequired: 4002,
  htmlUrlRequired: 4004,
  invalidHtmlUrl: 4005,
  invalidZipUrl: 4006,
} as const;

export function templateFrom(opts: { name?: string; htmlUrl?: string; zipUrl?: string }): TemplateRequest {
  const T = TEMPLATE_CODES;
  const Name = requireText(opts.name, '--name', T.nameRequired, 'the template name');
  const HtmlPageURL = checkHttpUrl(requireText(opts.htmlUrl, '--html-url', T.htmlUrlRequired, 'the URL of the HTML page'), '--html-url', T.invalidHtmlUrl);
  // ZipFileURL is required (spec), but no "required" code exists: a missing URL is an invalid one (4006).
  const ZipFileURL = checkHttpUrl(requireText(opts.zipUrl, '--zip-url', T.invalidZipUrl, 'the URL of the ZIP file'), '--zip-url', T.invalidZipUrl);
  return { Name, HtmlPageURL, ZipFileURL };
}
