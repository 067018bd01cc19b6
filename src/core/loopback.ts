// Whether a host names only this machine: 127.0.0.0/8, ::1 (in any
// spelling, or as an IPv4-mapped 127.x address) or `localhost` itself
// (CLI.md "--base-url"). The one test for a base URL that may be plain http
// (core/config.ts) and for a --host that needs no warning (`webhooks listen`,
// `sandbox`). No name is resolved: a name under .localhost is not loopback,
// because the system resolver may ask a DNS server about it, whose answer
// could send the key anywhere in clear text.
import { isIPv4, isIPv6 } from 'node:net';

export function isLoopbackHost(host: string): boolean {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (!isIPv6(h)) return false;
  // The URL parser writes an IPv6 address in its one canonical form (::1, ::ffff:7f00:1).
  const canonical = new URL(`http://[${h}]/`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}
