import type { RawResponse } from '../../core/http.js';
import { checkResult as result, type CheckResult } from '../../core/probes.js';

/** Also bin/email's check, which runs before anything else. */
export const MIN_NODE_VERSION = '22.15.0';
/** When each Node line stops getting fixes; a line newer than this table is taken as maintained. */
const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};
/** Dates given to the service and TLS validity depend on the clock. */
const CLOCK_SKEW_WARN_MS = 60_000;
export function checkNode(version: string, today: Date): CheckResult {
  if (compareVersions(version, MIN_NODE_VERSION) < 0) {
    return result('node', 'fail', `Node.js ${version} is older than ${MIN_NODE_VERSION}, the oldest this tool runs on`, 'install Node.js 24 LTS (or 22 LTS)');
  }
  const line = Number(version.split('.')[0]);
  const endOfLife = NODE_END_OF_LIFE[line];
  if (endOfLife && today.toISOString().slice(0, 10) > endOfLife) {
    return result(
      'node',
      'warn',
      `Node.js ${version}: the ${line} line reached its end of life on ${endOfLife} and gets no more security fixes; email still runs on it, but is tested on 22, 24 and 26`,
      'install Node.js 24 LTS (or 22 LTS)',
    );
  }
  return result('node', 'ok', `Node.js ${version}`);
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

export function checkClock(response: RawResponse, sentAt: number, answeredAt: number): CheckResult {
  const header = response.headers.date;
  const date = Array.isArray(header) ? header[0] : header;
  const serverMs = date ? Date.parse(date) : NaN;
  if (!date || Number.isNaN(serverMs)) return result('clock', 'warn', 'the service sent no Date header to compare with');
  // The Date header has whole seconds and was stamped somewhere during the round trip.
  const localMs = (sentAt + answeredAt) / 2;
  const skewMs = localMs - serverMs;
  const slackMs = 1000 + (answeredAt - sentAt) / 2;
  if (Math.abs(skewMs) <= slackMs) return result('clock', 'ok', 'in step with the service (within a second)');
  const text = `${formatDuration(Math.abs(skewMs))} ${skewMs > 0 ? 'ahead of' : 'behind'} the service`;
  if (Math.abs(skewMs) > CLOCK_SKEW_WARN_MS) {
    return result('clock', 'warn', `the local clock is ${text}`, 'turn on time synchronisation (e.g. `timedatectl set-ntp true`); dates and TLS checks depend on it');
  }
  return result('clock', 'ok', `the local clock is ${text} (under ${CLOCK_SKEW_WARN_MS / 1000} s)`);
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
