// email segments update: with --group the rules are all replaced, without it kept; the command says which.
import { UsageError } from '../../core/errors.js';
import { messageOnly, defineCommand, idArg, listOption, textOption } from '../define.js';
import { fromFileOption, readSegmentFile } from './from-file.js';
import type { RuleGroup } from '../../validation/rule-groups.js';
import { RULE_GROUP_HELP, TITLE_EMPTY } from './codes.js';

export default defineCommand({
  name: 'update',
  summary: 'Rename a segment; with --group, replace ALL of its rules (without --group, rules are kept)',
  description:
    'Giving --group replaces all existing rules of the segment by the groups given. Leaving --group out keeps the rules as they are. To remove every rule, use `email segments clear-rules`; to add a group, `email segments add-rules`.',
  args: { segment: idArg('segment', 'segment id') },
  options: {
    title: textOption('--title', '<t>', 'segment title (required: the update always sets it)'),
    group: listOption('--group', '<rules>', `${RULE_GROUP_HELP}; replaces every existing rule`),
    fromFile: fromFileOption('the request body {Title, RuleGroups}; with RuleGroups it replaces every rule'),
  },
  records: { fields: ['SegmentID', 'Title', 'RuleGroups', 'RuleGroups.Rules', 'RuleGroups.Rules.RuleType', 'RuleGroups.Rules.Clause'] },
  examples: [
    'email segments update <id> --title "Gmail users"',
    'email segments update --segment <id> --title Gmail --group "EmailAddress CONTAINS @gmail.com"',
    'email segments get <id> --json > s.json && email segments update <id> --from-file @s.json',
  ],
  async run({ segment: segmentId, title, group: groups, fromFile }, ctx) {
    const [{ updateSegment }, { requireText }, { parseRuleGroups }] = await Promise.all([
      import('../../api/segments.js'),
      import('../../validation/option-checks.js'),
      import('../../validation/rule-groups.js'),
    ]);
    if (fromFile !== undefined && groups.length) throw new UsageError('give the rules with --group or in --from-file, not both');
    const file = fromFile === undefined ? {} : await readSegmentFile(fromFile, 'segment', ctx);
    const fileTitle = typeof file.Title === 'string' ? file.Title : undefined;
    const Title = requireText(title ?? fileTitle, fromFile === undefined ? '--title' : '--title (or Title in --from-file)', TITLE_EMPTY, 'the segment title (the update call always sets it)');
    // "When RuleGroups is present, all existing rules are deleted before the new ones are parsed; when absent, existing rules remain."
    const RuleGroups = groups.length ? parseRuleGroups(groups, '--group', ctx.log.warn) : (file.RuleGroups as RuleGroup[] | undefined) ?? undefined;
    const body = RuleGroups ? { Title, RuleGroups } : { Title };
    const res = await updateSegment(await ctx.api(), segmentId, body);
    return {
      // The service's answer; when it has none (200, service-spec.md "Update segment"), what was set.
      data: res.data ?? { SegmentID: segmentId, ...body },
      people: messageOnly,
      message: RuleGroups
        ? `Updated segment ${segmentId}: title set; all previous rules replaced by ${RuleGroups.length} rule group${RuleGroups.length === 1 ? '' : 's'}.`
        : `Updated segment ${segmentId}: title set; rules kept (give --group to replace them).`,
    };
  },
});
