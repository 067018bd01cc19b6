// email subscribers add: POST /email/subscribers/{listId} (service-spec.md
// "Add subscriber"). Every value is checked before sending, with the service's
// codes (1, 214, 215) where the rule is the service's.
import { addSubscriber } from '../../api/subscribers.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { printCreated } from '../../output/created-id.js';
import { checkUuid } from '../../validation/option-checks.js';
import { addressFlag, consentFlag, fieldFlags, SubscriberCode } from '../../validation/subscriber-fields.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const listId = checkUuid(opts.list, '--list');
  const email = addressFlag(opts.email, '--email', SubscriberCode.invalidEmail);
  if (typeof opts.name !== 'string') throw new UsageError('--name is required: the subscriber name');
  const body = {
    EmailAddress: email,
    Name: opts.name,
    CustomFields: fieldFlags(opts.field),
    ConsentToTrack: consentFlag(opts.consent),
    Resubscribe: Boolean(opts.resubscribe),
    RestartSubscriptionBasedAutoresponders: Boolean(opts.restartAutoresponders),
  };
  const answer = await addSubscriber(await ctx.api(), listId, body);
  // The 201 body is a JSON string identifying the subscriber.
  await printCreated(ctx, answer, typeof answer === 'string' ? answer : undefined, `subscriber ${email}`);
}
