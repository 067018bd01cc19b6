// Query parameters of the reads, checked before sending with the service's codes.
import { INVALID_SMART_EMAIL_ID, type OrderDirection, type OrderField, type StatsTimeZone } from '../schemas/enums.js';
import { UsageError } from '../core/errors.js';
import { checkUuid } from './option-checks.js';

// ---- campaign unsubscribes (service-spec.md "Campaign unsubscribers") -------

const INVALID_DATE = 5;

function isCalendarDay(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * A day alone and ISO's T are taken too, sent in the service's form. A time zone is refused: the
 * service reads moments in the account's zone, which the tool does not know.
 */
export function checkSince(value: string | undefined, flag = '--since'): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?$/.exec(text);
  const [hour, minute] = [Number(m?.[4] ?? 0), Number(m?.[5] ?? 0)];
  if (!m || !isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) || hour > 23 || minute > 59) {
    throw new UsageError(
      `${flag} must be a day or a moment: YYYY-MM-DD, "YYYY-MM-DD HH:MM" or YYYY-MM-DDTHH:MM, in the account's time zone, e.g. "2024-06-01 09:30" (got "${value}")`,
      INVALID_DATE,
    );
  }
  return `${m[1]}-${m[2]}-${m[3]} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

export interface UnsubscribesQuery {
  date?: string;
  page?: number;
  pagesize?: number;
  orderfield?: OrderField;
  orderdirection?: OrderDirection;
}

// ---- transactional (service-spec.md "Transactional (smart) emails") ---------

const INVALID_FROM_DATE = 920;
const FROM_AFTER_TO = 921;
const INVALID_TO_DATE = 922;
const GROUP_AND_SMART_EMAIL = 924;

export function checkDay(value: unknown, flag: string, code: number): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m || !isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]))) {
    throw new UsageError(`${flag} must be a day written YYYY-MM-DD, e.g. 2024-06-01; got "${String(value)}"`, code);
  }
  return text;
}

export interface StatisticsQuery {
  group?: string;
  smartEmailId?: string;
  from?: string;
  to?: string;
  timezone?: StatsTimeZone;
}

/** from ≤ to is checked only when both are given: the defaults are days of the account's own zone. */
export function checkStatisticsQuery(opts: { group?: string; smartEmail?: string; from?: string; to?: string; timezone?: StatsTimeZone }): StatisticsQuery {
  const group = opts.group;
  if (group !== undefined && opts.smartEmail !== undefined) {
    throw new UsageError('--group and --smart-email cannot be combined: statistics are of a classic email group or of one smart email', GROUP_AND_SMART_EMAIL);
  }
  if (group !== undefined && group.trim() === '') throw new UsageError('--group is empty: give the name of a classic email group');
  const smartEmailId = opts.smartEmail === undefined ? undefined : checkUuid(opts.smartEmail, '--smart-email', INVALID_SMART_EMAIL_ID);
  const from = checkDay(opts.from, '--from', INVALID_FROM_DATE);
  const to = checkDay(opts.to, '--to', INVALID_TO_DATE);
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`, FROM_AFTER_TO);
  return { group, smartEmailId, from, to, timezone: opts.timezone };
}
