// email transactional stats: the table shows the service's query echo, marking
// the values the spec's defaults supplied, then the counters.
import type { Column } from '../define.js';
import { INVALID_TIME_ZONE, STATS_TIME_ZONES } from '../../schemas/enums.js';
import type { StatisticsQuery } from '../../validation/query-params.js';
import { choiceOption, defineCommand, textOption } from '../define.js';

/** service-spec.md "Email statistics": defaults of the optional query parameters. */
const STATS_DEFAULTS = {
  from: '29 days before today',
  to: 'today',
  timezone: "the client's time zone",
} as const;

export default defineCommand({
  name: 'stats',
  summary: 'Show delivery and engagement statistics of transactional email',
  records: { schema: async () => (await import('../../schemas/transactional.js')).emailStatistics },
  options: {
    group: textOption('--group', '<name>', 'classic email group name (not with --smart-email)'),
    // Checked by checkStatisticsQuery: with --group it is refused first (924), then as an id (925).
    smartEmail: textOption('--smart-email', '<id>', 'smart email id (not with --group)', { complete: 'smart-email' }),
    from: textOption('--from', '<YYYY-MM-DD>', 'start date (default: 29 days before today)'),
    to: textOption('--to', '<YYYY-MM-DD>', 'end date (default: today)'),
    timezone: choiceOption('--timezone', '<tz>', 'time zone of the dates (default: the client time zone)', STATS_TIME_ZONES, { code: INVALID_TIME_ZONE }),
  },
  examples: ['email transactional stats', 'email transactional stats --smart-email <id> --from 2024-06-01 --to 2024-06-30 --timezone utc'],
  async run(input, ctx) {
    const [{ getEmailStatistics }, { checkStatisticsQuery }] = await Promise.all([import('../../api/transactional.js'), import('../../validation/query-params.js')]);
    const query = checkStatisticsQuery(input);
    const stats = await getEmailStatistics(await ctx.api(), query);
    return { data: stats, columns: statsColumns(query) };
  },
});

function shown(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** Where the user gave no value, the spec's default is named beside it. */
function echoed(given: string | undefined, defaultText: string | undefined) {
  return (value: unknown): string => {
    const text = shown(value);
    if (given !== undefined || defaultText === undefined) return text;
    return text ? `${text} (default: ${defaultText})` : `(default: ${defaultText})`;
  };
}

function statsColumns(query: StatisticsQuery): Column[] {
  return [
    { key: 'Query.Group', header: 'Group', format: echoed(query.group, query.smartEmailId === undefined ? 'all' : undefined) },
    { key: 'Query.SmartEmailID', header: 'Smart email', format: echoed(query.smartEmailId, query.group === undefined ? 'all' : undefined) },
    { key: 'Query.From', header: 'From', format: echoed(query.from, STATS_DEFAULTS.from) },
    { key: 'Query.To', header: 'To', format: echoed(query.to, STATS_DEFAULTS.to) },
    { key: 'Query.TimeZone', header: 'Time zone', format: echoed(query.timezone, STATS_DEFAULTS.timezone) },
    { key: 'Sent', header: 'Sent' },
    { key: 'Bounces', header: 'Bounces' },
    { key: 'Delivered', header: 'Delivered' },
    { key: 'Opened', header: 'Opened' },
    { key: 'Clicked', header: 'Clicked' },
  ];
}
