// email campaigns scheduled: GET /email/clients/scheduled (service-spec.md
// "Scheduled campaign"). Dates are shown as the service gives them (in the
// account's time zone); JSON carries the full objects.
import type { Column } from '../define.js';
import { defineCommand } from '../define.js';

const COLUMNS: Column[] = [
  { key: 'CampaignID', header: 'ID', fixed: true },
  { key: 'Name', header: 'Name' },
  { key: 'Subject', header: 'Subject' },
  { key: 'DateScheduled', header: 'Scheduled', fixed: true },
  { key: 'ScheduledTimeZone', header: 'Time zone' },
];

export default defineCommand({
  name: 'scheduled',
  summary: 'List scheduled campaigns',
  records: { schema: async () => (await import('../../schemas/campaigns.js')).scheduledCampaigns, list: true },
  examples: ['email campaigns scheduled', 'email campaigns scheduled --json'],
  async run(_input, ctx) {
    const { listScheduledCampaigns } = await import('../../api/campaigns.js');
    const campaigns = await listScheduledCampaigns(await ctx.api());
    return { data: campaigns, columns: COLUMNS };
  },
});
