// email transactional list: GET /email/transactional/smartEmail?status= (service-spec.md "List smart emails").
import type { Column } from '../define.js';
import { INVALID_STATUS, SMART_EMAIL_STATUSES } from '../../schemas/enums.js';
import { choiceOption, defineCommand } from '../define.js';

const COLUMNS: Column[] = [
  { key: 'ID', header: 'ID', fixed: true },
  { key: 'Name', header: 'Name' },
  { key: 'Status', header: 'Status' },
  { key: 'CreatedAt', header: 'Created' },
];

export default defineCommand({
  name: 'list',
  summary: 'List smart emails',
  records: { schema: async () => (await import('../../schemas/transactional.js')).smartEmailList, list: true },
  options: { status: choiceOption('--status', '<status>', 'filter by status', SMART_EMAIL_STATUSES, { code: INVALID_STATUS }) },
  examples: ['email transactional list', 'email transactional list --status active --json'],
  async run({ status }, ctx) {
    const { listSmartEmails } = await import('../../api/transactional.js');
    const emails = await listSmartEmails(await ctx.api(), status);
    return { data: emails, columns: COLUMNS };
  },
});
