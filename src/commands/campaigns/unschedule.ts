// email campaigns unschedule: POST /email/campaigns/{id}/unschedule
// (service-spec.md "Unschedule campaign"). Cancels a sending, so it asks first
// (CLI.md "confirmation") and is never repeated automatically.
import { unscheduleCampaign } from '../../api/campaigns.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { confirmDestructive } from '../../output/confirm.js';
import { checkUuid } from '../../validation/option-checks.js';

/** service-spec.md "Preview and scheduling": 341 campaign not scheduled. */
export const CAMPAIGN_NOT_SCHEDULED = 341;

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const campaignId = checkUuid(opts.campaign, '--campaign');
  const go = await confirmDestructive(ctx, `Unschedule campaign ${campaignId}, cancelling its sending and returning it to drafts?`, opts.yes, 'unschedule a campaign');
  if (!go) throw new UsageError('cancelled: the campaign stays scheduled');
  try {
    const res = await unscheduleCampaign(await ctx.api(), campaignId);
    if (ctx.out.format === 'json' && res.data !== undefined) await ctx.out.print(res.data);
  } catch (err) {
    if (err instanceof ApiError && err.code === CAMPAIGN_NOT_SCHEDULED) {
      // service-spec.md "States and transitions": a campaign not scheduled, sent or sending stays unchanged.
      err.hint = 'Only a scheduled campaign can be unscheduled: this one is a draft, or is already sending or sent, and was left unchanged. `email campaigns scheduled` lists the scheduled ones.';
    }
    throw err;
  }
  ctx.log.info(`Unscheduled campaign ${campaignId}: it is a draft again.`);
}
