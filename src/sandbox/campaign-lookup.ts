// Look-ups shared by the campaign routes (routes/campaigns.ts,
// routes/campaign-unsubscribes.ts, routes/campaign-reports.ts).
import { canonicalId, isUuid } from './identifiers.js';
import { failStatus, type SandboxContext } from './router.js';
import type { State } from './types.js';
import type { SandboxCampaign } from './types-campaigns.js';

/** A campaign by id: a malformed id is a generic 400, an unknown one a 404 (the spec does not show the 404 shape). */
export function requireCampaign(state: State, campaignId: string): SandboxCampaign {
  if (!isUuid(campaignId)) failStatus(400, `Invalid campaign ID: ${campaignId} is not a UUID.`);
  const key = canonicalId(campaignId);
  const campaign = Object.hasOwn(state.campaigns, key) ? state.campaigns[key] : undefined;
  if (!campaign) failStatus(404, `Campaign ${campaignId} does not exist.`);
  return campaign;
}

/** Number of unsubscribe records of a campaign: the `unsubscribesPerCampaign` option × the campaign's share. */
export function unsubscribeCount(ctx: SandboxContext, campaign: SandboxCampaign): number {
  if (campaign.Status !== 'Sent' || !campaign.Unsubscribes) return 0;
  return Math.round(ctx.options.unsubscribesPerCampaign * campaign.Unsubscribes.Share);
}
