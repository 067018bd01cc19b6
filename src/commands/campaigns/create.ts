// email campaigns create: POST /email/campaigns (service-spec.md "Create draft
// campaign"). Every check the request alone allows runs first, with the
// service's codes; the answer (the target ids as keys) is printed.
import { createDraftCampaign } from '../../api/campaigns.js';
import type { Context } from '../../context.js';
import { draftCampaignFrom } from '../../validation/campaign-fields.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const draft = draftCampaignFrom(opts);
  const answer = await createDraftCampaign(await ctx.api(), draft);
  if (ctx.out.format === 'json' || ctx.out.format === 'ndjson') {
    await ctx.out.print(answer);
    return;
  }
  const kind = draft.SegmentIDs ? 'segment' : 'list';
  const rows = Object.keys(answer).map((id) => ({ Target: kind, ID: id }));
  ctx.log.info(`Created draft campaign "${draft.Name}" for ${rows.length} ${kind}${rows.length === 1 ? '' : 's'}.`);
  await ctx.out.print(rows, { columns: [{ key: 'Target' }, { key: 'ID' }] });
}
