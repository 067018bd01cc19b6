// email segments update: PUT /email/segments/{segmentId} (service-spec.md
// "Update segment"). With --group the rules are replaced, all of them; without
// it they are kept. The command says which happened.
import { updateSegment } from '../../api/segments.js';
import type { Context } from '../../context.js';
import { checkUuid, requireText } from '../../validation/option-checks.js';
import { parseRuleGroups } from '../../validation/rule-groups.js';
import { TITLE_EMPTY } from './codes.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const segmentId = checkUuid(opts.segment, '--segment');
  const Title = requireText(opts.title, '--title', TITLE_EMPTY, 'the segment title (the update call always sets it)');
  const groups = opts.group as string[] | undefined;
  // "When RuleGroups is present, all existing rules are deleted before the new ones are parsed; when absent, existing rules remain."
  const RuleGroups = groups?.length ? parseRuleGroups(groups) : undefined;
  const res = await updateSegment(await ctx.api(), segmentId, RuleGroups ? { Title, RuleGroups } : { Title });
  if (ctx.out.format === 'json' && res.data !== undefined) await ctx.out.print(res.data);
  ctx.log.info(
    RuleGroups
      ? `Updated segment ${segmentId}: title set; all previous rules replaced by ${RuleGroups.length} rule group${RuleGroups.length === 1 ? '' : 's'}.`
      : `Updated segment ${segmentId}: title set; rules kept (give --group to replace them).`,
  );
}
