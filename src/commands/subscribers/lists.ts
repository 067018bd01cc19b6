// email subscribers lists: GET /email/clients/listsforemail (service-spec.md
// "Lists for an email address"): every list the address is on, with its state.
import { getListsForEmail } from '../../api/subscribers.js';
import type { Context } from '../../context.js';
import { addressFlag, SubscriberCode } from '../../validation/subscriber-fields.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const email = addressFlag(opts.email, '--email', SubscriberCode.invalidEmail);
  const lists = await getListsForEmail(await ctx.api(), email);
  await ctx.out.print(lists, {
    columns: [
      { key: 'ListID', header: 'List ID', fixed: true },
      { key: 'ListName', header: 'Name' },
      { key: 'SubscriberState', header: 'State' },
      { key: 'DateSubscriberAdded', header: 'Added' },
    ],
  });
}
