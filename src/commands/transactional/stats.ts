// email transactional stats: GET /email/transactional/statistics
// (service-spec.md "Email statistics"). The table shows the service's query
// echo, marking the values the spec's defaults supplied, then the counters.
import { getEmailStatistics } from '../../api/transactional.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/render.js';
import { checkStatisticsQuery, type StatisticsQuery } from '../../validation/query-params.js';

/** service-spec.md "Email statistics": defaults of the optional query parameters. */
export const STATS_DEFAULTS = {
  from: '29 days before today',
  to: 'today',
  timezone: "the client's time zone",
} as const;

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const query = checkStatisticsQuery(opts);
  const stats = await getEmailStatistics(await ctx.api(), query);
  await ctx.out.print(stats, ctx.out.format === 'table' ? { columns: statsColumns(query) } : undefined);
}

function shown(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** The echo as the service gives it; where the user gave no value, the spec's default is named beside it. */
function echoed(given: string | undefined, defaultText: string | undefined) {
  return (value: unknown): string => {
    const text = shown(value);
    if (given !== undefined || defaultText === undefined) return text;
    return text ? `${text} (default: ${defaultText})` : `(default: ${defaultText})`;
  };
}

export function statsColumns(query: StatisticsQuery): Column[] {
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
