// email subscribers add: POST /email/subscribers/{listId} (service-spec.md
// "Add subscriber"). Every value is checked before sending, with the service's
// codes (1, 214, 215) where the rule is the service's.
import { defineCommand, idOption, listOption, switchOption, textOption } from '../define.js';
import { CONSENT_HELP, EMAIL_INVALID } from './codes.js';

export default defineCommand({
  name: 'add',
  summary: 'Add a subscriber to a list (an existing address is updated)',
  options: {
    list: idOption('--list', 'list id'),
    email: textOption('--email', '<addr>', 'email address', { required: true, check: 'email', code: EMAIL_INVALID }),
    name: textOption('--name', '<n>', 'subscriber name', { required: true, what: 'the subscriber name' }),
    field: listOption('--field', '<Key=Value>', 'custom field value; repeat a Key to set several options of a MultiSelectMany field'),
    // Not a declared choice: a missing consent is the service's 214 and a wrong one its 215 (consentFlag).
    consent: textOption('--consent', '<yes|no>', CONSENT_HELP, { suggest: ['yes', 'no'] }),
    resubscribe: switchOption('--resubscribe', 're-add the address even if it is unsubscribed, inactive or suppressed'),
    restartAutoresponders: switchOption('--restart-autoresponders', 'restart subscription-based automated emails for a resubscribed address'),
  },
  // Prints the subscriber's address, as the service answers it.
  records: { fields: [] },
  examples: [
    'email subscribers add --list <id> --email ada@example.com --name "Ada Lovelace" --consent yes',
    'email subscribers add --list <id> --email bo@example.com --name Bo --field Interests=News --field Interests=Events --consent yes',
  ],
  async run(input, ctx) {
    const [{ addSubscriber }, { createdResult }, { consentFlag, fieldFlags }] = await Promise.all([
      import('../../api/subscribers.js'),
      import('../created-id.js'),
      import('../../validation/subscriber-fields.js'),
    ]);
    const body = {
      EmailAddress: input.email,
      Name: input.name,
      CustomFields: fieldFlags(input.field),
      ConsentToTrack: consentFlag(input.consent),
      Resubscribe: input.resubscribe,
      RestartSubscriptionBasedAutoresponders: input.restartAutoresponders,
    };
    const answer = await addSubscriber(await ctx.api(), input.list, body);
    // The 201 body is a JSON string identifying the subscriber.
    return createdResult(ctx, answer, typeof answer === 'string' ? answer : undefined, `subscriber ${input.email}`);
  },
});
