// email subscribers update: codes are checked before sending; --field values go as typed.
import { rememberLists } from '../completion/seen-lists.js';
import { messageOnly, defineCommand, idOption, listOption, switchOption, textOption } from '../define.js';
import { ALLOW_EMPTY_NAME_HELP, CONSENT_HELP, CONSENT_HINT, CONSENT_MISSING, CONSENT_WHAT, EMAIL_INVALID, NEW_EMAIL_INVALID, RESTART_HELP } from './codes.js';

export default defineCommand({
  name: 'update',
  summary: "Update a subscriber's address, name, custom fields or consent",
  description:
    'Sent as typed: --field values (a value shaped like a date in another form than yyyy/mm/dd, or a date-time, is said on stderr with the --field that sends its yyyy/mm/dd form). ' +
    'Checked before sending: the addresses, --consent, a --field without Key= or over 250 characters, and an empty --name (asked at a terminal; --allow-empty-name sends it).',
  options: {
    list: idOption('--list', 'list id'),
    email: textOption('--email', '<current>', 'current email address', { required: true, check: 'email', code: EMAIL_INVALID }),
    newEmail: textOption('--new-email', '<addr>', 'new email address', { check: 'email', code: NEW_EMAIL_INVALID }),
    // Required though the contract lists it as optional: the service requires Name on update, and no endpoint reads the current one back.
    name: textOption('--name', '<n>', 'the name (required: the update replaces it; give the current one to keep it)', {
      required: true,
      what: "the update replaces the subscriber's name; give the current one to keep it",
      hint: 'The service requires Name on update, and no endpoint reads the current name back (docs/reference.md, "email subscribers update"); give the current name to keep it.',
    }),
    field: listOption('--field', '<Key=Value>', 'custom field value, sent as typed (a Date field takes yyyy/mm/dd); repeat a Key for MultiSelectMany (replaces all options)'),
    clearField: listOption('--clear-field', '<Key[=Value]>', 'clear a field, or one option of a MultiSelectMany field'),
    consent: textOption('--consent', '<yes|no>', CONSENT_HELP, { required: true, what: CONSENT_WHAT, hint: CONSENT_HINT, code: CONSENT_MISSING, suggest: ['yes', 'no'] }),
    resubscribe: switchOption('--resubscribe', 're-add the subscriber if inactive'),
    restartAutoresponders: switchOption('--restart-autoresponders', RESTART_HELP),
    allowEmptyName: switchOption('--allow-empty-name', ALLOW_EMPTY_NAME_HELP),
  },
  records: { fields: ['ListID', 'EmailAddress', 'Name', 'CustomFields', 'CustomFields.Key', 'CustomFields.Value', 'CustomFields.Clear', 'ConsentToTrack', 'Resubscribe', 'RestartSubscriptionBasedAutoresponders'] },
  examples: [
    'email subscribers update --list <id> --email ada@example.com --new-email ada@new.example.com --name "Ada Lovelace" --consent yes',
    'email subscribers update --list <id> --email ada@example.com --name "Ada Lovelace" --clear-field Interests=News --consent yes',
  ],
  async run(input, ctx) {
    const [{ updateSubscriber }, { clearFieldFlags, consentFlag, fieldFlags }, { nameToSend }] = await Promise.all([
      import('../../api/subscribers.js'),
      import('../../validation/subscriber-fields.js'),
      import('./codes.js'),
    ]);
    const current = input.email;
    const newEmail = input.newEmail ?? current;
    const consent = consentFlag(input.consent);
    const notes: string[] = [];
    // service-spec.md rule 4: values not supplied stay unchanged; --field and --clear-field items go in the order given.
    const CustomFields = [...fieldFlags(input.field, (line) => notes.push(line)), ...clearFieldFlags(input.clearField)];
    const Name = await nameToSend(ctx, input.name, input.allowEmptyName, current);
    for (const line of notes) ctx.log.warn(line);
    const body = {
      EmailAddress: newEmail,
      Name,
      CustomFields,
      ConsentToTrack: consent,
      Resubscribe: input.resubscribe,
      RestartSubscriptionBasedAutoresponders: input.restartAutoresponders,
    };
    const answer = await updateSubscriber(await ctx.api(), input.list, current, body);
    await rememberLists(ctx, [input.list]);
    return {
      // When the service answers nothing, what was sent.
      data: answer.data ?? { ListID: input.list, ...body },
      people: messageOnly,
      message: newEmail === current ? `updated ${current}` : `updated ${current} → ${newEmail}`,
    };
  },
});
