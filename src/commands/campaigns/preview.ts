// email campaigns preview: a send, so never repeated once it may have reached the service.
import { ApiError, NetworkError } from '../../core/errors.js';
import { INVALID_PREVIEW_RECIPIENTS } from '../../schemas/enums.js';
import { messageOnly, defineCommand, idArg, listOption } from '../define.js';

export default defineCommand({
  name: 'preview',
  summary: 'Send a preview of a campaign to up to 15 addresses (never repeated automatically)',
  args: { campaign: idArg('campaign', 'campaign id') },
  options: { to: listOption('--to', '<addr>', 'recipient (repeat, 1 to 15)') },
  records: { fields: ['CampaignID', 'PreviewRecipients'] },
  examples: ['email campaigns preview <id> --to ada@example.com --to bo@example.com', 'email campaigns preview --campaign <id> --to ada@example.com'],
  async run({ campaign: campaignId, to }, ctx) {
    const [{ sendCampaignPreview }, { previewRecipientsFrom }] = await Promise.all([import('../../api/campaigns.js'), import('../../validation/campaign-fields.js')]);
    const recipients = previewRecipientsFrom(to);
    const client = await ctx.api();
    let data: unknown;
    try {
      const res = await sendCampaignPreview(client, campaignId, recipients);
      // The service answers 200 with no body: then what was sent, in its field names.
      data = res.data ?? { CampaignID: campaignId, PreviewRecipients: recipients };
    } catch (err) {
      if (err instanceof ApiError && err.code === INVALID_PREVIEW_RECIPIENTS) {
        const named = recipientsIn(err.resultData);
        if (named.length) err.hint = `The service refused: ${named.join(', ')}`;
      } else if ((err instanceof ApiError && err.status >= 500) || (err instanceof NetworkError && !err.neverSent)) {
        err.hint = 'The preview may have been sent before the failure; it is not repeated automatically. Check the inboxes before sending it again.';
      }
      throw err;
    }
    return { data, people: messageOnly, message: `Sent a preview of campaign ${campaignId} to ${recipients.length} address${recipients.length === 1 ? '' : 'es'}.` };
  },
});

/** 371's ResultData "lists the invalid ones as Recipient entries": any string found under a Recipient key. */
function recipientsIn(resultData: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown, underRecipient: boolean) => {
    if (typeof value === 'string') {
      if (underRecipient) found.push(value);
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v, underRecipient);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, underRecipient || /^recipients?$/i.test(k));
    }
  };
  visit(resultData, false);
  return found;
}
