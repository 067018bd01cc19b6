// email subscribers update: PUT /email/subscribers/{listId}?email=<current>
// (service-spec.md "Update subscriber"). Codes checked before sending: 1 for
// the current address, 211 for the new one, 214/215 for consent.
import { updateSubscriber, type SubscriberBody } from '../../api/subscribers.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { checkUuid } from '../../validation/option-checks.js';
import { addressFlag, clearFieldFlags, consentFlag, fieldFlags, SubscriberCode } from '../../validation/subscriber-fields.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const listId = checkUuid(opts.list, '--list');
  const current = addressFlag(opts.email, '--email', SubscriberCode.invalidEmail);
  const newEmail = opts.newEmail === undefined ? current : addressFlag(opts.newEmail, '--new-email', SubscriberCode.invalidNewEmail);
  if (typeof opts.name !== 'string') {
    const error = new UsageError('--name is required: the update replaces the subscriber\'s name');
    error.hint = 'service-spec.md "Subscriber" makes Name required on update, and no endpoint reads the current name back; give the current name to keep it.';
    throw error;
  }
  const body: SubscriberBody = {
    EmailAddress: newEmail,
    Name: opts.name,
    // service-spec.md rule 4: values not supplied stay unchanged; --field and
    // --clear-field items go in the order given.
    CustomFields: [...fieldFlags(opts.field), ...clearFieldFlags(opts.clearField)],
    ConsentToTrack: consentFlag(opts.consent),
    Resubscribe: Boolean(opts.resubscribe),
    // "Default false when omitted"; update has no flag for it (CLI.md).
    RestartSubscriptionBasedAutoresponders: false,
  };
  const answer = await updateSubscriber(await ctx.api(), listId, current, body);
  if (ctx.out.format !== 'table' && answer.data !== undefined) await ctx.out.print(answer.data);
  ctx.log.info(newEmail === current ? `updated ${current}` : `updated ${current} → ${newEmail}`);
}
