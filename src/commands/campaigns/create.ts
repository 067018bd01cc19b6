// email campaigns create: every check the request alone allows runs first. The
// service's compulsory options are checked by draftCampaignFrom, not declared
// required, so a missing one is refused with the service's own code. Any 2xx
// answer without an id is printed as received with a warning, never re-sent.
import { rememberLists } from '../completion/seen-lists.js';
import { messageOnly, defineCommand, listOption, textOption } from '../define.js';

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
    list: listOption('--list', '<id>', "target list (repeat; or --segment; with neither, the profile's default list)", { complete: 'list' }),
    segment: listOption('--segment', '<id>', 'target segment (repeat; or --list)'),
  },
  // No fields to choose: it prints the new id (or the service's answer).
  records: { fields: [] },
  examples: [
    'email campaigns create --name "June news" --subject "News" --from-name Ada --from-email ada@example.com --reply-to ada@example.com --html-url https://example.com/june.html --list <id>',
    'email campaigns create --name "Pro offer" --subject "For Pro users" --from-name Ada --from-email ada@example.com --reply-to ada@example.com --html-url https://example.com/pro.html --segment <id> --json',
  ],
  async run(input, ctx) {
    const [{ createDraftCampaign }, { createdResult }, { draftCampaignFrom }] = await Promise.all([
      import('../../api/campaigns.js'),
      import('../created-id.js'),
      import('../../validation/campaign-fields.js'),
    ]);
    const draft = draftCampaignFrom(input);
    const answer = await createDraftCampaign(await ctx.api(), draft);
    await rememberLists(ctx, input.list);
    const what = `campaign "${draft.Name}"`;
    if (!answer.fits) return createdResult(ctx, answer.data, undefined, what, answer.problem);
    // The real service answers the bare id; the sandbox keeps the spec's body and sends the id in a header.
    const id = typeof answer.data === 'string' ? answer.data : headerValue(answer.headers[CREATED_CAMPAIGN_HEADER]);
    if (id) {
      ctx.log.info(`Created draft campaign "${draft.Name}".`);
      return createdResult(ctx, answer.data, id, what);
    }
    // Stdout gets no id (a list id would pass for the campaign's in `id=$(…)`); the line shows even with --quiet.
    const targets = Object.keys(answer.data).length;
    const kind = draft.SegmentIDs ? 'segment' : 'list';
    ctx.log.warn(
      `draft campaign "${draft.Name}" created for ${targets} ${kind}${targets === 1 ? '' : 's'}, but the service's answer carries no campaign id; ` +
        `find the draft by its name in the service's web app (no endpoint lists drafts)`,
    );
    // Scripts get the service's answer as received; people, the line above.
    return { data: answer.data, people: messageOnly };
  },
});

/** As undici gives headers: lower case. */
const CREATED_CAMPAIGN_HEADER = 'x-sandbox-campaign-id';

function headerValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}
