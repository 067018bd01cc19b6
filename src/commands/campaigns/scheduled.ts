// email campaigns scheduled: GET /email/clients/scheduled (service-spec.md
// "Scheduled campaign"). Dates are shown as the service gives them (in the
// account's time zone); JSON carries the full objects.
import { listScheduledCampaigns } from '../../api/campaigns.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';

const COLUMNS: Column[] = [
  { key: 'CampaignID', header: 'ID', fixed: true },
  { key: 'Name', header: 'Name' },
  { key: 'Subject', header: 'Subject' },
  { key: 'DateScheduled', header: 'Scheduled', fixed: true },
  { key: 'ScheduledTimeZone', header: 'Time zone' },
];

export async function run(_opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const campaigns = await listScheduledCampaigns(await ctx.api());
  await ctx.out.print(campaigns, ctx.out.format === 'table' ? { columns: COLUMNS } : undefined);
}
