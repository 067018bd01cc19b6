// service-spec.md "Transactional (smart) emails".
import type { ApiClient } from '../core/http.js';
import { emailStatistics, smartEmailDetails, smartEmailList, type EmailStatistics } from '../schemas/transactional.js';
import type { SmartEmailStatus } from '../schemas/enums.js';
import type { StatisticsQuery } from '../validation/query-params.js';

/** The spec does not show this name; it follows the path parameter's spelling, as the sandbox reads it. */
export const STATS_SMART_EMAIL_PARAM = 'smartEmailID';

export function listSmartEmails(client: ApiClient, status?: SmartEmailStatus) {
  return client.request({ method: 'GET', path: '/email/transactional/smartEmail', query: { status }, schema: smartEmailList, idempotent: true });
}

export function getSmartEmail(client: ApiClient, smartEmailId: string) {
  return client.request({
    method: 'GET',
    path: `/email/transactional/smartEmail/${encodeURIComponent(smartEmailId)}`,
    schema: smartEmailDetails,
    idempotent: true,
  });
}

/** Parameters left out take the service's defaults. */
export function getEmailStatistics(client: ApiClient, query: StatisticsQuery): Promise<EmailStatistics> {
  return client.request({
    method: 'GET',
    path: '/email/transactional/statistics',
    query: { group: query.group, [STATS_SMART_EMAIL_PARAM]: query.smartEmailId, from: query.from, to: query.to, timezone: query.timezone },
    schema: emailStatistics,
    idempotent: true,
  });
}
