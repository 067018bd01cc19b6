// email segments get: the table shows one line per rule group, its rules joined
// by OR (groups are ANDed); JSON is the service's data unchanged.
import type { Column } from '../define.js';
import { defineCommand, idArg } from '../define.js';

export default defineCommand({
  name: 'get',
  summary: 'Show a segment with its rule groups and active subscriber count',
  records: { schema: async () => (await import('../../schemas/segments.js')).segmentDetails },
  args: { segment: idArg('segment', 'segment id') },
  examples: ['email segments get <id>', 'email segments get --segment <id> --json'],
  async run({ segment: segmentId }, ctx) {
    const [{ getSegment }, { describeRuleGroup }] = await Promise.all([import('../../api/segments.js'), import('../../validation/rule-groups.js')]);
    const segment = await getSegment(await ctx.api(), segmentId);
    const base: Column[] = [
      { key: 'SegmentID', header: 'Segment' },
      { key: 'ListID', header: 'List' },
      { key: 'Title', header: 'Title' },
      { key: 'ActiveSubscribers', header: 'Active subscribers' },
    ];
    return {
      data: segment,
      columns: [...base, ...ruleGroupRows(segment.RuleGroups, describeRuleGroup)],
    };
  },
});

/** "Rules" for the first group, "AND" for each further one: the rows read as the membership condition. */
function ruleGroupRows(groups: unknown, describeRuleGroup: (group: unknown) => string): Column[] {
  if (!Array.isArray(groups) || groups.length === 0) return [{ key: 'RuleGroups', header: 'Rules', format: () => '(none)' }];
  return groups.map((_, i) => ({
    key: `RuleGroups.${i}`,
    header: i === 0 ? 'Rules' : 'AND',
    format: (group: unknown) => describeRuleGroup(group),
  }));
}
