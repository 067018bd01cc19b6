// email subscribers history: GET /email/subscribers/{listId}/history
// (service-spec.md "Subscriber history"). JSON is the service's array
// unchanged; the table has one line per action, under its campaign.
import { getSubscriberHistory } from '../../api/subscribers.js';
import type { Context } from '../../context.js';
import { checkUuid } from '../../validation/option-checks.js';
import { addressFlag, SubscriberCode } from '../../validation/subscriber-fields.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const listId = checkUuid(opts.list, '--list');
  const email = addressFlag(opts.email, '--email', SubscriberCode.invalidEmail);
  const history = await getSubscriberHistory(await ctx.api(), listId, email);
  if (ctx.out.format !== 'table') {
    await ctx.out.print(history);
    return;
  }
  const rows = history.flatMap((entry) => {
    const actions = entry.Actions?.length ? entry.Actions : [{}];
    return actions.map((action) => ({ Type: entry.Type, Name: entry.Name, ID: entry.ID, ...action }));
  });
  await ctx.out.print(rows, {
    columns: [
      { key: 'Type' },
      { key: 'Name' },
      { key: 'Event' },
      { key: 'Date' },
      { key: 'IPAddress', header: 'IP address' },
      { key: 'Detail' },
      { key: 'ID', fixed: true },
    ],
  });
}
