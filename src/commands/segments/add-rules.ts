// email segments add-rules: POST /email/segments/{segmentId}/rules
// (service-spec.md "Add rule group"): one more group, ANDed with the others.
import { addRuleGroup } from '../../api/segments.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { checkUuid } from '../../validation/option-checks.js';
import { parseRuleGroup } from '../../validation/rule-groups.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const segmentId = checkUuid(opts.segment, '--segment');
  const groups = (opts.group as string[] | undefined) ?? [];
  if (groups.length !== 1) {
    throw new UsageError('add-rules adds one rule group a call: give --group once (join alternatives with " OR " inside it)');
  }
  const group = parseRuleGroup(groups[0]!);
  const res = await addRuleGroup(await ctx.api(), segmentId, group);
  if (ctx.out.format === 'json' && res.data !== undefined) await ctx.out.print(res.data);
  ctx.log.info(`Added a rule group of ${group.Rules.length} rule${group.Rules.length === 1 ? '' : 's'} to segment ${segmentId}; existing groups are kept.`);
}
