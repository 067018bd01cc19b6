// email campaigns unschedule: cancels a sending, so it asks first and is never repeated automatically.
import { ApiError, UsageError } from '../../core/errors.js';
import { messageOnly, defineCommand, idArg, switchOption } from '../define.js';

/** service-spec.md "Preview and scheduling": 341 campaign not scheduled. */
const CAMPAIGN_NOT_SCHEDULED = 341;

export default defineCommand({
  name: 'unschedule',
  summary: 'Return a scheduled campaign to drafts, cancelling its sending',
  args: { campaign: idArg('campaign', 'campaign id') },
  options: { yes: switchOption('--yes', 'do not ask for confirmation (required without a terminal)', { short: '-y' }) },
  records: { fields: ['CampaignID'] },
  examples: ['email campaigns unschedule <id>', 'email campaigns unschedule --campaign <id> --yes'],
  async run({ campaign: campaignId, yes }, ctx) {
    const [{ listScheduledCampaigns, unscheduleCampaign }, { confirmDestructive, namedObject, sameId }] = await Promise.all([
      import('../../api/campaigns.js'),
      import('../confirm.js'),
    ]);
    // The question names the campaign (CLI.md "prompts"): one read of the scheduled list, the only read that names a scheduled campaign.
    const question = async () => {
      const named = await namedObject(ctx, campaignId, async () => (await listScheduledCampaigns(await ctx.api())).find((c) => sameId(c.CampaignID, campaignId))?.Name);
      return `Unschedule campaign ${named}, cancelling its sending and returning it to drafts?`;
    };
    const go = await confirmDestructive(ctx, question, yes, 'unschedule a campaign');
    if (!go) throw new UsageError('cancelled: the campaign stays scheduled');
    let data: unknown;
    try {
      const res = await unscheduleCampaign(await ctx.api(), campaignId);
      // 200 with no body: then the campaign it acted on.
      data = res.data ?? { CampaignID: campaignId };
    } catch (err) {
      if (err instanceof ApiError && err.code === CAMPAIGN_NOT_SCHEDULED) {
        // service-spec.md "States and transitions": a campaign not scheduled, sent or sending stays unchanged.
        err.hint = 'Only a scheduled campaign can be unscheduled: this one is a draft, or is already sending or sent, and was left unchanged. `email campaigns scheduled` lists the scheduled ones.';
      }
      throw err;
    }
    return { data, people: messageOnly, message: `Unscheduled campaign ${campaignId}: it is a draft again.` };
  },
});
