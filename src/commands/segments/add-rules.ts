// email segments add-rules: POST /email/segments/{segmentId}/rules
// (service-spec.md "Add rule group"): one more group, ANDed with the others.
import { UsageError } from '../../core/errors.js';
import type { RuleGroup } from '../../validation/rule-groups.js';
import { messageOnly, defineCommand, idArg, listOption } from '../define.js';
import { fromFileOption, readSegmentFile } from './from-file.js';

export default defineCommand({
  name: 'add-rules',
  summary: 'Add one rule group (one more AND requirement) to a segment',
  args: { segment: idArg('segment', 'segment id') },
  options: {
    group: listOption('--group', '<rules>', 'rules joined by " OR ", each "RuleType Clause"'),
    fromFile: fromFileOption('the group {Rules: [{RuleType, Clause}]}'),
  },
  records: { fields: ['SegmentID', 'RuleGroup', 'RuleGroup.Rules', 'RuleGroup.Rules.RuleType', 'RuleGroup.Rules.Clause'] },
  examples: ['email segments add-rules <id> --group "DateSubscribed AFTER 2024/01/01"'],
  async run({ segment: segmentId, group: groups, fromFile }, ctx) {
    const [{ addRuleGroup }, { parseRuleGroup }] = await Promise.all([import('../../api/segments.js'), import('../../validation/rule-groups.js')]);
    if (fromFile !== undefined && groups.length) throw new UsageError('give the group with --group or in --from-file, not both');
    if (fromFile === undefined && groups.length !== 1) {
      throw new UsageError('add-rules adds one rule group a call: give --group once (join alternatives with " OR " inside it)');
    }
    const group = fromFile === undefined ? parseRuleGroup(groups[0]!, '--group', ctx.log.warn) : ((await readSegmentFile(fromFile, 'group', ctx)) as unknown as RuleGroup);
    const res = await addRuleGroup(await ctx.api(), segmentId, group);
    return {
      // The service's answer; when it has none, the group added.
      data: res.data ?? { SegmentID: segmentId, RuleGroup: group },
      people: messageOnly,
      message: `Added a rule group of ${group.Rules.length} rule${group.Rules.length === 1 ? '' : 's'} to segment ${segmentId}; existing groups are kept.`,
    };
  },
});
