// email campaigns preview: POST /email/campaigns/{id}/sendpreview
// (service-spec.md "Send campaign preview"). A send: never repeated
// automatically once it may have reached the service.
import { sendCampaignPreview } from '../../api/campaigns.js';
import type { Context } from '../../context.js';
import { ApiError, NetworkError } from '../../core/errors.js';
import { INVALID_PREVIEW_RECIPIENTS, previewRecipientsFrom } from '../../validation/campaign-fields.js';
import { checkUuid } from '../../validation/option-checks.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const campaignId = checkUuid(opts.campaign, '--campaign');
  const recipients = previewRecipientsFrom(opts.to);
  const client = await ctx.api();
  try {
    const res = await sendCampaignPreview(client, campaignId, recipients);
    if (ctx.out.format === 'json' && res.data !== undefined) await ctx.out.print(res.data);
  } catch (err) {
    if (err instanceof ApiError && err.code === INVALID_PREVIEW_RECIPIENTS) {
      const named = recipientsIn(err.resultData);
      if (named.length) err.hint = `The service refused: ${named.join(', ')}`;
    } else if ((err instanceof ApiError && err.status >= 500) || (err instanceof NetworkError && !neverConnected(err))) {
      err.hint = 'The preview may have been sent before the failure; it is not repeated automatically. Check the inboxes before sending it again.';
    }
    throw err;
  }
  ctx.log.info(`Sent a preview of campaign ${campaignId} to ${recipients.length} address${recipients.length === 1 ? '' : 'es'}.`);
}

/** Failures before a connection existed: the preview cannot have gone out. */
function neverConnected(err: NetworkError): boolean {
  const code = (err.cause as { code?: string } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** 371's ResultData "lists the invalid ones as Recipient entries": any string found under a Recipient key. */
export function recipientsIn(resultData: unknown): string[] {
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
