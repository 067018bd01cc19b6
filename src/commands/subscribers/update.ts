// email subscribers update: PUT /email/subscribers/{listId}?email=<current>
// (service-spec.md "Update subscriber"). Codes checked before sending: 1 for
// the current address, 211 for the new one, 214/215 for consent.
import { UsageError } from '../../core/errors.js';
import { defineCommand, idOption, listOption, switchOption, textOption } from '../define.js';
import { CONSENT_HELP, EMAIL_INVALID, NEW_EMAIL_INVALID } from './codes.js';

export default defineCommand({
  name: 'update',
  summary: "Update a subscriber's address, name, custom fields or consent",
  options: {
    list: idOption('--list', 'list id'),
    email: textOption('--email', '<current>', 'current email address', { required: true, check: 'email', code: EMAIL_INVALID }),
    newEmail: textOption('--new-email', '<addr>', 'new email address', { check: 'email', code: NEW_EMAIL_INVALID }),
    name: textOption('--name', '<n>', 'the name (required: the update replaces it; give the current one to keep it)'),
    field: listOption('--field', '<Key=Value>', 'custom field value; repeat a Key for MultiSelectMany (replaces all options)'),
    clearField: listOption('--clear-field', '<Key[=Value]>', 'clear a field, or one option of a MultiSelectMany field'),
    consent: textOption('--consent', '<yes|no>', CONSENT_HELP, { suggest: ['yes', 'no'] }),
    resubscribe: switchOption('--resubscribe', 're-add the subscriber if inactive'),
  },
  records: { fields: ['ListID', 'EmailAddress', 'Name', 'CustomFields', 'CustomFields.Key', 'CustomFields.Value', 'CustomFields.Clear', 'ConsentToTrack', 'Resubscribe', 'RestartSubscriptionBasedAutoresponders'] },
  examples: [
    'email subscribers update --list <id> --email ada@example.com --new-email ada@new.example.com --name "Ada Lovelace" --consent yes',
    'email subscribers update --list <id> --email ada@example.com --name "Ada Lovelace" --clear-field Interests=News --consent yes',
  ],
  async run(input, ctx) {
    const [{ updateSubscriber }, { clearFieldFlags, consentFlag, fieldFlags }] = await Promise.all([
      import('../../api/subscribers.js'),
      import('../../validation/subscriber-fields.js'),
    ]);
    const current = input.email;
    const newEmail = input.newEmail ?? current;
    if (input.name === undefined) {
      const error = new UsageError("--name is required: the update replaces the subscriber's name");
      error.hint = 'The service requires Name on update, and no endpoint reads the current name back (docs/reference.md, "email subscribers update"); give the current name to keep it.';
      throw error;
    }
    const body = {
      EmailAddress: newEmail,
      Name: input.name,
      // service-spec.md rule 4: values not supplied stay unchanged; --field and
      // --clear-field items go in the order given.
      CustomFields: [...fieldFlags(input.field), ...clearFieldFlags(input.clearField)],
      ConsentToTrack: consentFlag(input.consent),
      Resubscribe: input.resubscribe,
      // "Default false when omitted"; update has no flag for it (CLI.md).
      RestartSubscriptionBasedAutoresponders: false,
    };
    const answer = await updateSubscriber(await ctx.api(), input.list, current, body);
    return {
      // The service's answer; when it has none (200, service-spec.md "Update subscriber"), what was sent.
      data: answer.data ?? { ListID: input.list, ...body },
      action: true,
      message: newEmail === current ? `updated ${current}` : `updated ${current} → ${newEmail}`,
    };
  },
});
