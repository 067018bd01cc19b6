// email segments get: GET /email/segments/{segmentId}. The table shows one
// line per rule group, its rules joined by OR (groups are ANDed); JSON is the
// service's data unchanged.
import { getSegment } from '../../api/segments.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';
import { checkUuid } from '../../validation/option-checks.js';
import { describeRuleGroup } from '../../validation/rule-groups.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const segmentId = checkUuid(opts.segment, '--segment');
  const segment = await getSegment(await ctx.api(), segmentId);
  const base: Column[] = [
    { key: 'SegmentID', header: 'Segment' },
    { key: 'ListID', header: 'List' },
    { key: 'Title', header: 'Title' },
    { key: 'ActiveSubscribers', header: 'Active subscribers' },
  ];
  if (ctx.out.format === 'csv') {
    await ctx.out.print(segment, { columns: ['SegmentID', 'ListID', 'Title', 'ActiveSubscribers', 'RuleGroups'] });
    return;
  }
  if (ctx.out.format !== 'table') {
    await ctx.out.print(segment);
    return;
  }
  await ctx.out.print(segment, { columns: [...base, ...ruleGroupRows(segment.RuleGroups)] });
}

/** "Rules" for the first group, "AND" for each further one: the rows read as the membership condition. */
export function ruleGroupRows(groups: unknown): Column[] {
  if (!Array.isArray(groups) || groups.length === 0) return [{ key: 'RuleGroups', header: 'Rules', format: () => '(none)' }];
  return groups.map((_, i) => ({
    key: `RuleGroups.${i}`,
    header: i === 0 ? 'Rules' : 'AND',
    format: (group: unknown) => describeRuleGroup(group),
  }));
}
