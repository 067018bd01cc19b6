// email segments create: POST /email/segments/{listId} (service-spec.md
// "Create segment"); prints the new segment id.
import { UsageError } from '../../core/errors.js';
import { rememberLists } from '../completion/seen-lists.js';
import { defineCommand, idOption, listOption, textOption } from '../define.js';
import { fromFileOption, readSegmentFile } from './from-file.js';
import { RULE_GROUP_HELP, TITLE_EMPTY } from './codes.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a segment and print its id',
  options: {
    list: idOption('--list', 'list id'),
    title: textOption('--title', '<t>', 'segment title (required; unique within the list)'),
    group: listOption('--group', '<rules>', RULE_GROUP_HELP),
    fromFile: fromFileOption('the request body {Title, RuleGroups}'),
  },
  // Prints the new segment's id.
  records: { fields: [] },
  examples: [
    'email segments create --list <id> --title "Gmail" --group "EmailAddress CONTAINS @gmail.com"',
    'email segments create --list <id> --title "2024 joiners at a or b" --group "EmailAddress CONTAINS @a.com OR EmailAddress CONTAINS @b.com" --group "DateSubscribed AFTER 2024/01/01"',
    'email segments create --list <id> --from-file @segment.json',
  ],
  async run({ list: listId, group: groups, title, fromFile }, ctx) {
    const [{ createSegment }, { createdResult }, { requireText }, { parseRuleGroups }] = await Promise.all([
      import('../../api/segments.js'),
      import('../created-id.js'),
      import('../../validation/option-checks.js'),
      import('../../validation/rule-groups.js'),
    ]);
    let body: Record<string, unknown>;
    if (fromFile !== undefined) {
      if (groups.length) throw new UsageError('give the rules with --group or in --from-file, not both');
      // The file is the request body as the service takes it; --title, if given, names the segment instead.
      body = await readSegmentFile(fromFile, 'segment', ctx);
      if (title !== undefined) body.Title = title;
      requireText(typeof body.Title === 'string' ? body.Title : undefined, '--title (or Title in --from-file)', TITLE_EMPTY, 'the segment title, unique within the list');
    } else {
      body = { Title: requireText(title, '--title', TITLE_EMPTY, 'the segment title, unique within the list') };
      const ruleGroups = parseRuleGroups(groups, '--group', ctx.log.warn);
      // "RuleGroups … Optional on create": left out rather than sent empty.
      if (ruleGroups.length) body.RuleGroups = ruleGroups;
    }
    const answer = await createSegment(await ctx.api(), listId, body);
    await rememberLists(ctx, [listId]);
    const what = `segment "${String(body.Title)}"`;
    if (answer.fits) return createdResult(ctx, answer.data, answer.data, what);
    return createdResult(ctx, answer.data, undefined, what, answer.problem);
  },
});
