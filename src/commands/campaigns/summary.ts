// email campaigns summary: GET /email/campaigns/{id}/summary (service-spec.md "Campaign summary").
import type { Column } from '../../output/render.js';
import { defineCommand, idArg } from '../define.js';

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

export default defineCommand({
  name: 'summary',
  summary: 'Show the summary of a sent campaign',
  records: { schema: async () => (await import('../../schemas/campaigns.js')).campaignSummary },
  args: { campaign: idArg('campaign', 'campaign id') },
  examples: ['email campaigns summary <id>', 'email campaigns summary --campaign <id> --json'],
  async run({ campaign }, ctx) {
    const { getCampaignSummary } = await import('../../api/campaigns.js');
    const summary = await getCampaignSummary(await ctx.api(), campaign);
    return { data: summary, view: ctx.out.format === 'table' ? { columns: COLUMNS } : undefined };
  },
});
