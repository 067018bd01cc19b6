// email campaigns create: POST /email/campaigns (service-spec.md "Create draft
// campaign"). Every check the request alone allows runs first, with the
// service's codes; the answer is printed: the target ids as keys (the spec),
// or the new campaign's id as a bare JSON string (the real service). Any
// other 2xx answer is printed as received with a warning, never re-sent
// (CLI.md "lenient reading").
import { createDraftCampaign } from '../../api/campaigns.js';
import type { Context } from '../../context.js';
import { printCreated } from '../../output/created-id.js';
import { draftCampaignFrom } from '../../validation/campaign-fields.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const draft = draftCampaignFrom(opts);
  const answer = await createDraftCampaign(await ctx.api(), draft);
  const what = `campaign "${draft.Name}"`;
  if (!answer.fits) return printCreated(ctx, answer.data, undefined, what, answer.problem);
  if (typeof answer.data === 'string') {
    ctx.log.info(`Created draft campaign "${draft.Name}".`);
    return printCreated(ctx, answer.data, answer.data, what);
  }
  if (ctx.out.format === 'json' || ctx.out.format === 'ndjson') {
    await ctx.out.print(answer.data);
    return;
  }
  const kind = draft.SegmentIDs ? 'segment' : 'list';
  const rows = Object.keys(answer.data).map((id) => ({ Target: kind, ID: id }));
  ctx.log.info(`Created draft campaign "${draft.Name}" for ${rows.length} ${kind}${rows.length === 1 ? '' : 's'}.`);
  await ctx.out.print(rows, { columns: [{ key: 'Target' }, { key: 'ID' }] });
}
