// email segments clear-rules: undoes work, so it asks first.
import { UsageError } from '../../core/errors.js';
import { messageOnly, defineCommand, idArg, switchOption } from '../define.js';

export default defineCommand({
  name: 'clear-rules',
  summary: 'Remove every rule of a segment, leaving it blank',
  args: { segment: idArg('segment', 'segment id') },
  options: { yes: switchOption('--yes', 'do not ask for confirmation (required without a terminal)', { short: '-y' }) },
  records: { fields: ['SegmentID', 'RuleGroups'] },
  examples: ['email segments clear-rules <id>', 'email segments clear-rules --segment <id> --yes'],
  async run({ segment: segmentId, yes }, ctx) {
    const [{ clearSegmentRules, getSegment }, { confirmDestructive, namedObject }] = await Promise.all([import('../../api/segments.js'), import('../confirm.js')]);
    // The question names the segment (CLI.md "prompts"): one read of it.
    const question = async () => `Remove every rule of segment ${await namedObject(ctx, segmentId, async () => (await getSegment(await ctx.api(), segmentId)).Title)}, leaving it blank?`;
    const go = await confirmDestructive(ctx, question, yes, 'clear the rules of a segment');
    if (!go) throw new UsageError('cancelled: the rules were not cleared');
    const res = await clearSegmentRules(await ctx.api(), segmentId);
    // The service's answer; when it has none, the segment as left: no rule group.
    return { data: res.data ?? { SegmentID: segmentId, RuleGroups: [] }, people: messageOnly, message: `Cleared every rule of segment ${segmentId}.` };
  },
});
