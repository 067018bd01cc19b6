// email subscribers add: checked before sending, with the service's codes where
// the rule is the service's; --field values go as typed.
import { rememberLists } from '../completion/seen-lists.js';
import { defineCommand, idOption, listOption, switchOption, textOption } from '../define.js';
import { ALLOW_EMPTY_NAME_HELP, CONSENT_HELP, CONSENT_HINT, CONSENT_MISSING, CONSENT_WHAT, EMAIL_INVALID, RESTART_HELP } from './codes.js';

export default defineCommand({
  name: 'add',
  summary: 'Add a subscriber to a list (an existing address is updated)',
  description:
    'Sent as typed: --field values (a value shaped like a date in another form than yyyy/mm/dd, or a date-time, is said on stderr with the --field that sends its yyyy/mm/dd form). ' +
    'Checked before sending: the addresses, --consent, a --field without Key= or over 250 characters, and an empty --name (asked at a terminal; --allow-empty-name sends it).',
  options: {
    list: idOption('--list', 'list id'),
    email: textOption('--email', '<addr>', 'email address', { required: true, check: 'email', code: EMAIL_INVALID }),
    name: textOption('--name', '<n>', 'subscriber name (an existing address has its name replaced)', { required: true, what: 'the subscriber name' }),
    field: listOption('--field', '<Key=Value>', 'custom field value, sent as typed (a Date field takes yyyy/mm/dd); repeat a Key to set several options of a MultiSelectMany field'),
    // Not a declared choice: a wrong consent is the service's 215 (consentFlag).
    consent: textOption('--consent', '<yes|no>', CONSENT_HELP, { required: true, what: CONSENT_WHAT, hint: CONSENT_HINT, code: CONSENT_MISSING, suggest: ['yes', 'no'] }),
    resubscribe: switchOption('--resubscribe', 're-add the address even if it is unsubscribed, inactive or suppressed'),
    restartAutoresponders: switchOption('--restart-autoresponders', RESTART_HELP),
    allowEmptyName: switchOption('--allow-empty-name', ALLOW_EMPTY_NAME_HELP),
  },
  records: { fields: [] },
  examples: [
    'email subscribers add --list <id> --email ada@example.com --name "Ada Lovelace" --consent yes',
    'email subscribers add --list <id> --email bo@example.com --name Bo --field Interests=News --field Interests=Events --field Birthday=1990/05/17 --consent yes',
  ],
  async run(input, ctx) {
    const [{ addSubscriber }, { createdResult }, { consentFlag, fieldFlags }, { nameToSend, withResubscribeHint }] = await Promise.all([
      import('../../api/subscribers.js'),
      import('../created-id.js'),
      import('../../validation/subscriber-fields.js'),
      import('./codes.js'),
    ]);
    const consent = consentFlag(input.consent);
    const notes: string[] = [];
    const CustomFields = fieldFlags(input.field, (line) => notes.push(line));
    const Name = await nameToSend(ctx, input.name, input.allowEmptyName, input.email);
    for (const line of notes) ctx.log.warn(line);
    const body = {
      EmailAddress: input.email,
      Name,
      CustomFields,
      ConsentToTrack: consent,
      Resubscribe: input.resubscribe,
      RestartSubscriptionBasedAutoresponders: input.restartAutoresponders,
    };
    const answer = await addSubscriber(await ctx.api(), input.list, body).catch((err: unknown) => {
      throw withResubscribeHint(err);
    });
    await rememberLists(ctx, [input.list]);
    // The 201 body is a JSON string identifying the subscriber.
    return createdResult(ctx, answer, typeof answer === 'string' ? answer : undefined, `subscriber ${input.email}`);
  },
});
