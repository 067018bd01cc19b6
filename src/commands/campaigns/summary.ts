// email campaigns summary: GET /email/campaigns/{id}/summary (service-spec.md "Campaign summary").
import { getCampaignSummary } from '../../api/campaigns.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';
import { checkUuid } from '../../validation/option-checks.js';

const COLUMNS: Column[] = [
  { key: 'Recipients', header: 'Recipients' },
  { key: 'UniqueOpened', header: 'Opened (unique)' },
  { key: 'TotalOpened', header: 'Opened (total)' },
  { key: 'Clicks', header: 'Clicks' },
  { key: 'Unsubscribed', header: 'Unsubscribed' },
  { key: 'Bounced', header: 'Bounced' },
  { key: 'SpamComplaints', header: 'Spam complaints' },
  { key: 'Forwards', header: 'Forwards' },
  { key: 'Likes', header: 'Likes' },
  { key: 'Mentions', header: 'Mentions' },
  { key: 'WebVersionURL', header: 'Web version' },
  { key: 'WebVersionTextURL', header: 'Web version (text)' },
  { key: 'WorldviewURL', header: 'Worldview' },
];

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const campaignId = checkUuid(opts.campaign, '--campaign');
  const summary = await getCampaignSummary(await ctx.api(), campaignId);
  await ctx.out.print(summary, ctx.out.format === 'table' ? { columns: COLUMNS } : undefined);
}
