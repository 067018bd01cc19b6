// Whether a --host names only this machine: 127.0.0.0/8, ::1 (in any
// spelling, or as an IPv4-mapped 127.x address) or localhost. A server bound
// to any other address (0.0.0.0, ::, a LAN address, another name) can be
// reached from elsewhere, which `webhooks listen` and `sandbox` warn about.
// No name is resolved: a name other than localhost counts as not loopback.
import { isIPv4, isIPv6 } from 'node:net';

export function isLoopbackHost(host: string): boolean {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (!isIPv6(h)) return false;
  // The URL parser writes an IPv6 address in its one canonical form (::1, ::ffff:7f00:1).
  const canonical = new URL(`http://[${h}]/`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}
