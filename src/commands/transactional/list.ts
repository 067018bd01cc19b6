// email transactional list: GET /email/transactional/smartEmail?status= (service-spec.md "List smart emails").
import { listSmartEmails } from '../../api/transactional.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';
import { checkSmartEmailStatus } from '../../validation/query-params.js';

const COLUMNS: Column[] = [
  { key: 'ID', header: 'ID', fixed: true },
  { key: 'Name', header: 'Name' },
  { key: 'Status', header: 'Status' },
  { key: 'CreatedAt', header: 'Created' },
];

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const status = checkSmartEmailStatus(opts.status);
  const emails = await listSmartEmails(await ctx.api(), status);
  await ctx.out.print(emails, ctx.out.format === 'table' ? { columns: COLUMNS } : undefined);
}
