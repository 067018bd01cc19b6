// email segments clear-rules: DELETE /email/segments/{segmentId}/rules
// (service-spec.md "Delete segment rules"). Undoes work, so it asks first
// (CLI.md "confirmation").
import { clearSegmentRules } from '../../api/segments.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { confirmDestructive } from '../../output/confirm.js';
import { checkUuid } from '../../validation/option-checks.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const segmentId = checkUuid(opts.segment, '--segment');
  const go = await confirmDestructive(ctx, `Remove every rule of segment ${segmentId}, leaving it blank?`, opts.yes, 'clear the rules of a segment');
  if (!go) throw new UsageError('cancelled: the rules were not cleared');
  const res = await clearSegmentRules(await ctx.api(), segmentId);
  if (ctx.out.format === 'json' && res.data !== undefined) await ctx.out.print(res.data);
  ctx.log.info(`Cleared every rule of segment ${segmentId}.`);
}
