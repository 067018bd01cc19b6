// Whether a host names only this machine: 127.0.0.0/8, ::1 (in any
// spelling, or as an IPv4-mapped 127.x address) or `localhost` itself
// (CLI.md "--base-url"). The one test for a base URL that may be plain http
// (core/config.ts) and for a --host that needs no warning (`webhooks listen`,
// `sandbox`). No name is resolved: a name under .localhost is not loopback,
// because the system resolver may ask a DNS server about it, whose answer
// could send the key anywhere in clear text. With it, the `lookup` the
// connections use, which answers `localhost` itself.
// node:net and node:dns are fetched when first needed: core/config.ts imports
// this module on every command's path, completion scripts included, which load
// no network module (test/cli.test.ts "startup guard").
const net = () => process.getBuiltinModule('node:net') as typeof import('node:net');
const dns = () => process.getBuiltinModule('node:dns') as typeof import('node:dns');

export function isLoopbackHost(host: string): boolean {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost') return true;
  if (net().isIPv4(h)) return h.startsWith('127.');
  if (!net().isIPv6(h)) return false;
  // The URL parser writes an IPv6 address in its one canonical form (::1, ::ffff:7f00:1).
  const canonical = new URL(`http://[${h}]/`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * The `lookup` of the HTTP client's connections: `localhost` is answered here
 * (127.0.0.1, then ::1) and never reaches the system resolver, which could ask
 * a DNS server (CLI.md "--base-url": loopback `localhost` is never looked up
 * in DNS, so plain http to it keeps the key on this machine). Every other
 * name goes to dns.lookup as usual.
 */
export function loopbackAwareLookup(hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void {
  if (hostname.toLowerCase() !== 'localhost') {
    dns().lookup(hostname, options as never, callback as never);
    return;
  }
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
  const addresses = [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ].filter((a) => family === 0 || a.family === family);
  process.nextTick(() => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
