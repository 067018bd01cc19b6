// email segments create: POST /email/segments/{listId} (service-spec.md
// "Create segment"); prints the new segment id.
import { createSegment } from '../../api/segments.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { readJsonArgument } from '../../core/json-input.js';
import { printCreated } from '../../output/created-id.js';
import { checkUuid, requireText } from '../../validation/option-checks.js';
import { checkRuleGroupsShape, parseRuleGroups } from '../../validation/rule-groups.js';
import { TITLE_EMPTY } from './codes.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const listId = checkUuid(opts.list, '--list');
  const groups = opts.group as string[] | undefined;
  let body: Record<string, unknown>;
  if (opts.fromFile !== undefined) {
    if (groups?.length) throw new UsageError('give the rules with --group or in --from-file, not both');
    const doc = await readJsonArgument(String(opts.fromFile), '--from-file', ctx.io.stdin, ctx.cwd);
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new UsageError('--from-file must hold one JSON object: {"Title": "…", "RuleGroups": [{"Rules": [{"RuleType": "…", "Clause": "…"}]}]}');
    }
    // The file is the request body as the service takes it; --title, if given, names the segment instead.
    body = { ...(doc as Record<string, unknown>) };
    if (opts.title !== undefined) body.Title = opts.title;
    requireText(body.Title, '--title (or Title in --from-file)', TITLE_EMPTY, 'the segment title, unique within the list');
    checkRuleGroupsShape(body.RuleGroups, '--from-file');
  } else {
    body = { Title: requireText(opts.title, '--title', TITLE_EMPTY, 'the segment title, unique within the list') };
    const ruleGroups = parseRuleGroups(groups);
    // "RuleGroups … Optional on create": left out rather than sent empty.
    if (ruleGroups.length) body.RuleGroups = ruleGroups;
  }
  const answer = await createSegment(await ctx.api(), listId, body);
  const what = `segment "${String(body.Title)}"`;
  if (answer.fits) await printCreated(ctx, answer.data, answer.data, what);
  else await printCreated(ctx, answer.data, undefined, what, answer.problem);
}
