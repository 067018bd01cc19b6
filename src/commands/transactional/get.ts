// email transactional get: GET /email/transactional/smartEmail/{id}
// (service-spec.md "Smart email details"). The table leaves out the HTML and
// text bodies (long); JSON carries everything.
import { getSmartEmail } from '../../api/transactional.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';
import { checkSmartEmailId } from '../../validation/query-params.js';

const COLUMNS: Column[] = [
  { key: 'SmartEmailID', header: 'ID' },
  { key: 'Name', header: 'Name' },
  { key: 'Status', header: 'Status' },
  { key: 'CreatedAt', header: 'Created' },
  { key: 'Properties.From', header: 'From' },
  { key: 'Properties.ReplyTo', header: 'Reply-to' },
  { key: 'Properties.Subject', header: 'Subject' },
  {
    key: 'Properties.Content.EmailVariables',
    header: 'Variables',
    format: (v) => (Array.isArray(v) ? v.map(String).join(', ') : v === undefined || v === null ? '' : String(v)),
  },
  { key: 'Properties.Content.InlineCss', header: 'Inline CSS', format: (v) => (v === true ? 'yes' : v === false ? 'no' : '') },
  { key: 'Properties.HtmlPreviewUrl', header: 'HTML preview' },
  { key: 'Properties.TextPreviewUrl', header: 'Text preview' },
  { key: 'AddRecipientsToList', header: 'Adds recipients to list' },
];

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const smartEmailId = checkSmartEmailId(opts.smartEmail);
  const details = await getSmartEmail(await ctx.api(), smartEmailId);
  await ctx.out.print(details, ctx.out.format === 'table' ? { columns: COLUMNS } : undefined);
}
