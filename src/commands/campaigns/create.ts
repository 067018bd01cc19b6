// email campaigns create: POST /email/campaigns (service-spec.md "Create draft
// campaign"). Every check the request alone allows runs first, with the
// service's codes; the answer is printed: the target ids as keys (the spec),
// or the new campaign's id as a bare JSON string (the real service). Any
// other 2xx answer is printed as received with a warning, never re-sent
// (CLI.md "lenient reading").
//
// Options that the service's rules make compulsory are checked by
// draftCampaignFrom (not declared required) so a missing one is refused with
// the service's own code (319, 304, 305, 308, 310, 315), like the service would.
import { defineCommand, listOption, textOption } from '../define.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a draft campaign for lists or segments',
  options: {
    name: textOption('--name', '<name>', 'campaign name (required, unique)'),
    subject: textOption('--subject', '<subject>', 'subject line (required)'),
    fromName: textOption('--from-name', '<name>', 'sender name (required)'),
    fromEmail: textOption('--from-email', '<addr>', 'sender address (required)'),
    replyTo: textOption('--reply-to', '<addr>', 'reply-to address (required)'),
    htmlUrl: textOption('--html-url', '<url>', 'URL of the HTML content (required)'),
    textUrl: textOption('--text-url', '<url>', 'URL of the text content (generated from the HTML when omitted)'),
    list: listOption('--list', '<id>', 'target list (repeat; or --segment)'),
    segment: listOption('--segment', '<id>', 'target segment (repeat; or --list)'),
  },
  examples: [
    'email campaigns create --name "June news" --subject "News" --from-name Ada --from-email ada@example.com --reply-to ada@example.com --html-url https://example.com/june.html --list <id>',
    'email campaigns create --name "Pro offer" --subject "For Pro users" --from-name Ada --from-email ada@example.com --reply-to ada@example.com --html-url https://example.com/pro.html --segment <id> --json',
  ],
  async run(input, ctx) {
    const [{ createDraftCampaign }, { printCreated }, { draftCampaignFrom }] = await Promise.all([
      import('../../api/campaigns.js'),
      import('../../output/created-id.js'),
      import('../../validation/campaign-fields.js'),
    ]);
    const draft = draftCampaignFrom(input);
    const answer = await createDraftCampaign(await ctx.api(), draft);
    const what = `campaign "${draft.Name}"`;
    if (!answer.fits) return printCreated(ctx, answer.data, undefined, what, answer.problem);
    if (typeof answer.data === 'string') {
      ctx.log.info(`Created draft campaign "${draft.Name}".`);
      return printCreated(ctx, answer.data, answer.data, what);
    }
    if (ctx.out.format === 'json' || ctx.out.format === 'ndjson') return { data: answer.data };
    const kind = draft.SegmentIDs ? 'segment' : 'list';
    const rows = Object.keys(answer.data).map((id) => ({ Target: kind, ID: id }));
    ctx.log.info(`Created draft campaign "${draft.Name}" for ${rows.length} ${kind}${rows.length === 1 ? '' : 's'}.`);
    return { data: rows, view: { columns: [{ key: 'Target' }, { key: 'ID' }] } };
  },
});
