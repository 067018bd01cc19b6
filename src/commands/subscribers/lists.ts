// email subscribers lists: GET /email/clients/listsforemail (service-spec.md
// "Lists for an email address"): every list the address is on, with its state.
import { rememberLists } from '../completion/seen-lists.js';
import { defineCommand, textOption } from '../define.js';
import { EMAIL_INVALID } from './codes.js';

export default defineCommand({
  name: 'lists',
  summary: 'Show the lists an address is on, with its state on each',
  records: { schema: async () => (await import('../../schemas/subscribers.js')).listsForEmail, list: true },
  options: { email: textOption('--email', '<addr>', 'email address', { required: true, check: 'email', code: EMAIL_INVALID }) },
  examples: ['email subscribers lists --email ada@example.com', 'email subscribers lists --email ada@example.com --json'],
  async run({ email }, ctx) {
    const { getListsForEmail } = await import('../../api/subscribers.js');
    const lists = await getListsForEmail(await ctx.api(), email);
    // Their names are offered by `--list <TAB>` later; a long answer is looked at only so far.
    await rememberLists(ctx, lists.slice(0, 1_000).flatMap((l) => (typeof l.ListName === 'string' ? [{ id: l.ListID, name: l.ListName }] : [])));
    return {
      data: lists,
      columns: [
        { key: 'ListID', header: 'List ID', fixed: true },
        { key: 'ListName', header: 'Name' },
        { key: 'SubscriberState', header: 'State' },
        { key: 'DateSubscriberAdded', header: 'Added' },
      ],
    };
  },
});
