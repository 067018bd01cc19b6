// Reports on campaigns (service-spec.md "Campaign summary", "Scheduled
// campaign", "Sent campaign"; endpoints campaign summary, scheduled
// campaigns, sent campaigns).
import { requireCampaign, unsubscribeCount } from '../campaign-lookup.js';
import { serviceDateTime } from '../dates.js';
import { failStatus, ok, type RouteDef, type SandboxContext } from '../router.js';
import type { SandboxCampaign } from '../types-campaigns.js';

/**
 * Preview, web-version and worldview URLs of the sandbox's campaigns. The
 * sandbox serves no such pages; the reserved .invalid domain (RFC 2606) makes
 * that plain and keeps anyone from fetching them elsewhere.
 */
const CAMPAIGN_PAGES_BASE = 'https://campaigns.sandbox.invalid';

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

export const routes: RouteDef[] = [campaignSummary, scheduledCampaigns, sentCampaigns];
