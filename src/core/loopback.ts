// Whether a host names only this machine (CLI.md "--base-url"). No name is resolved: a name under
// .localhost may be asked of a DNS server, whose answer could send the key anywhere in clear text.
// node:net and node:dns are fetched when first needed: completion loads no network module.
const net = () => process.getBuiltinModule('node:net') as typeof import('node:net');
const dns = () => process.getBuiltinModule('node:dns') as typeof import('node:dns');

export function isLoopbackHost(host: string): boolean {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost') return true;
  if (net().isIPv4(h)) return h.startsWith('127.');
  if (!net().isIPv6(h)) return false;
  const canonical = new URL(`http://[${h}]/`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/** `localhost` is answered here and never reaches the system resolver, which could ask a DNS server. */
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
