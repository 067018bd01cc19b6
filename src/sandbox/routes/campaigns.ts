// Draft campaigns, previews and unscheduling (service-spec.md "Draft
// campaign", "Endpoints" → "Campaigns": create draft campaign, send campaign
// preview, unschedule campaign; "States and transitions"; codes 303-376,
// 4201-4203, 43xx). Unsubscribers: campaign-unsubscribes.ts; summary and the
// scheduled and sent lists: campaign-reports.ts.
import { randomUUID } from 'node:crypto';
import { isServiceAddress } from '../address.js';
import { requireCampaign } from '../campaign-lookup.js';
import { fetchLocalContent, isContentUrl } from '../content/fetch-content.js';
import { canonicalId, isUuid } from '../identifiers.js';
import { isReserved, tagsIn, withFallbacks } from '../personalisation-tags.js';
import { failCoded, failStatus, ok, requireBodyObject, type RouteDef } from '../router.js';
import { campaignAccount } from '../seed-campaigns.js';
import type { State } from '../types.js';
import type { SandboxCampaign } from '../types-campaigns.js';
import { segmentActiveMembers } from './segments.js';

const CAMPAIGN_MESSAGES = {
  303: 'A campaign with this name already exists.',
  304: 'The subject is required.',
  305: 'The from name is required.',
  307: 'The from address is invalid.',
  308: 'The reply-to address is required.',
  309: 'The reply-to address is invalid.',
  310: 'The HTML URL is required (an absolute http or https URL).',
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
} as const;

/** service-spec.md "Limits": preview recipients per call. */
const PREVIEW_RECIPIENTS_PER_CALL = 15;
/** service-spec.md "Limits": preview sending rate, 240 addresses per 1440 minutes. */
const PREVIEW_ADDRESSES_PER_DAY = 240;
const PREVIEW_WINDOW_MS = 1440 * 60_000;

/** Header carrying the id of a created draft: the 200 body names only its lists or segments (spec "Create draft campaign"). */
export const CREATED_CAMPAIGN_HEADER = 'X-Sandbox-Campaign-ID';

// ---- personalisation tags (322-326, personalisation-tags.ts) -------------------------------

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
    const b = requireBodyObject(req.body, 'the draft campaign');
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

    // Content checks, only when the content is on this machine (content/fetch-content.ts).
    const html = await fetchLocalContent(htmlUrl);
    if (html.kind === 'content') {
      // The HTML reader (htmlparser2) loads with the first content to check, not with the sandbox.
      const { checkCampaignHtml } = await import('../content/campaign-html.js');
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
function campaignRecipients(state: State, campaign: SandboxCampaign): Set<string> {
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
    const body = req.body === undefined ? {} : requireBodyObject(req.body, '{PreviewRecipients: [...]}');
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

export const routes: RouteDef[] = [createDraft, sendPreview, unschedule];
