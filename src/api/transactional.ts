// service-spec.md "Transactional (smart) emails".
import type { ApiClient } from '../core/http.js';
import { emailStatistics, smartEmailDetails, smartEmailList, type EmailStatistics } from '../schemas/transactional.js';
import type { SmartEmailStatus } from '../schemas/enums.js';
import type { StatisticsQuery } from '../validation/query-params.js';

/**
 * Name of the query parameter of "Email statistics" that filters by smart
 * email id. service-spec.md does not show it ("Name of the query parameter
 * filtering by smart email ID … not shown"); `smartEmailID` follows the spelling
 * of the path parameter {smartEmailID} and is what the sandbox reads. Change it
 * here, and only here, if the service names it otherwise.
 */
export const STATS_SMART_EMAIL_PARAM = 'smartEmailID';

/** GET /email/transactional/smartEmail?status=. */
export function listSmartEmails(client: ApiClient, status?: SmartEmailStatus) {
  return client.request({ method: 'GET', path: '/email/transactional/smartEmail', query: { status }, schema: smartEmailList, idempotent: true });
}

/** GET /email/transactional/smartEmail/{smartEmailID}. */
export function getSmartEmail(client: ApiClient, smartEmailId: string) {
  return client.request({
    method: 'GET',
    path: `/email/transactional/smartEmail/${encodeURIComponent(smartEmailId)}`,
    schema: smartEmailDetails,
    idempotent: true,
  });
}

/** GET /email/transactional/statistics; parameters left out take the service's defaults. */
export function getEmailStatistics(client: ApiClient, query: StatisticsQuery): Promise<EmailStatistics> {
  return client.request({
    method: 'GET',
    path: '/email/transactional/statistics',
    query: { group: query.group, [STATS_SMART_EMAIL_PARAM]: query.smartEmailId, from: query.from, to: query.to, timezone: query.timezone },
    schema: emailStatistics,
    idempotent: true,
  });
}
