// email campaigns open: the service gives page URLs in the sent and scheduled
// lists only, so both are read; a draft has neither.
import { CliError, ExitCode, hinted } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { defineCommand, idArg, type Result } from '../define.js';

/** A draft (or an unlisted campaign): the service refused nothing, but nothing was done. */
class NoPageError extends CliError {
  readonly exitCode = ExitCode.failure;
}

export default defineCommand({
  name: 'open',
  summary: "Open a campaign's page in the browser (its web version once sent, its preview while scheduled)",
  description: 'Opens the page with $BROWSER, else the system opener (xdg-open, open, or the Windows URL handler); with no display (CI, SSH) prints the URL instead and says why. Only http(s) pages are opened.',
  args: { campaign: idArg('campaign', 'campaign id') },
  records: { fields: ['URL'] },
  examples: ['email campaigns open <id>'],
  run: ({ campaign }, ctx) => openCampaignPage(ctx, campaign),
});

export async function openCampaignPage(ctx: Context, campaign: string): Promise<Result> {
  const [{ listScheduledCampaigns, listSentCampaigns, getCampaignSummary }, { sameId }, { openPage }] = await Promise.all([
    import('../../api/campaigns.js'),
    import('../confirm.js'),
    import('../web.js'),
  ]);
  const api = await ctx.api();
  const [scheduled, sent] = await Promise.all([listScheduledCampaigns(api), listSentCampaigns(api)]);
  const planned = scheduled.find((c) => sameId(c.CampaignID, campaign));
  if (planned) return openPage(ctx, planned.PreviewURL, 'PreviewURL', 'GET /email/clients/scheduled');
  const done = sent.campaigns.find((c) => sameId(c.CampaignID, campaign));
  if (done) return openPage(ctx, done.WebVersionURL, 'WebVersionURL', 'GET /email/clients/campaigns');
  // The sent list is paged: an older campaign's summary carries the same URL.
  if (sent.paging && sent.paging.numberOfPages > sent.paging.pageNumber) {
    const summary = await getCampaignSummary(api, campaign);
    return openPage(ctx, summary.WebVersionURL, 'WebVersionURL', `GET /email/campaigns/${campaign}/summary`);
  }
  throw hinted(
    new NoPageError(`campaign ${campaign} is neither sent nor scheduled: a draft has no page to open`),
    '`email campaigns sent` and `email campaigns scheduled` list the campaigns that have one.',
  );
}
