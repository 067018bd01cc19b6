// email campaigns sent: GET /email/clients/campaigns (service-spec.md "Sent
// campaign"). Dates as the service gives them; JSON carries the full objects.
import type { Column } from '../../output/render.js';
import { defineCommand } from '../define.js';

const COLUMNS: Column[] = [
  { key: 'CampaignID', header: 'ID', fixed: true },
  { key: 'Name', header: 'Name' },
  { key: 'Subject', header: 'Subject' },
  { key: 'SentDate', header: 'Sent', fixed: true },
  { key: 'TotalRecipients', header: 'Recipients' },
];

export default defineCommand({
  name: 'sent',
  summary: 'List sent campaigns',
  examples: ['email campaigns sent', 'email campaigns sent -o csv > sent.csv'],
  async run(_input, ctx) {
    const { listSentCampaigns } = await import('../../api/campaigns.js');
    const campaigns = await listSentCampaigns(await ctx.api());
    return { data: campaigns, view: ctx.out.format === 'table' ? { columns: COLUMNS } : undefined };
  },
});
