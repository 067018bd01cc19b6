// Date formats of the service. service-spec.md "Events": webhook dates are
// YYYY-MM-DD HH:MM:SS. The same form is used for the date-time fields the
// sandbox returns; they are "in the client's time zone" (spec "Lists-for-email
// element"), and the sandbox's client time zone is UTC.

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** YYYY-MM-DD HH:MM:SS in UTC. */
export function serviceDateTime(date: Date | string): string {
  const d = typeof date === 'string' ? new Date(date) : date;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
