// email campaigns sent: the real service answers the paged envelope; its
// Results are the list, and a list it paged says so.
import type { Column } from '../define.js';
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
  records: { schema: async () => (await import('../../schemas/campaigns.js')).sentCampaigns, list: true },
  examples: ['email campaigns sent', 'email campaigns sent -o csv > sent.csv'],
  async run(_input, ctx) {
    const { listSentCampaigns } = await import('../../api/campaigns.js');
    const { campaigns, paging } = await listSentCampaigns(await ctx.api());
    if (paging && paging.numberOfPages > paging.pageNumber) {
      ctx.log.warn(
        `showing page ${paging.pageNumber} of ${paging.numberOfPages} (${paging.totalNumberOfRecords} sent campaigns in all): the service paged the list; \`email api /email/clients/campaigns --paginate\` fetches every page`,
      );
    }
    return { data: campaigns, columns: COLUMNS };
  },
});
