// email subscribers history: JSON is the service's array unchanged; the table
// has one line per action, under its campaign.
import { rememberLists } from '../completion/seen-lists.js';
import { defineCommand, idOption, textOption } from '../define.js';
import { EMAIL_INVALID } from './codes.js';

export default defineCommand({
  name: 'history',
  summary: "Show a subscriber's campaign history on a list",
  records: { schema: async () => (await import('../../schemas/subscribers.js')).subscriberHistory, list: true, unit: 'campaign entries' },
  options: {
    list: idOption('--list', 'list id'),
    email: textOption('--email', '<addr>', 'email address', { required: true, check: 'email', code: EMAIL_INVALID }),
  },
  examples: ['email subscribers history --list <id> --email ada@example.com'],
  async run({ list, email }, ctx) {
    const { getSubscriberHistory } = await import('../../api/subscribers.js');
    const history = await getSubscriberHistory(await ctx.api(), list, email);
    await rememberLists(ctx, [list]);
    // People read a line per action; --limit counts the records, cut before they become lines.
    const rows = (entries: typeof history) =>
      entries.flatMap((entry) => {
        const actions = entry.Actions?.length ? entry.Actions : [{}];
        return actions.map((action) => ({ Type: entry.Type, Name: entry.Name, ID: entry.ID, ...action }));
      });
    return {
      data: history,
      people: (data, out) => out.table(rows(data as typeof history), [
        { key: 'Type' },
        { key: 'Name' },
        { key: 'Event' },
        { key: 'Date' },
        { key: 'IPAddress', header: 'IP address' },
        { key: 'Detail' },
        // The campaign's id repeats on each of its actions: with --wide.
        { key: 'ID', fixed: true, wide: true },
      ]),
    };
  },
});
