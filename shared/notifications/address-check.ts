import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns';
import { promises as dns } from 'node:dns';

/** Addresses a notification must not reach unless WEBHOOK_ALLOW_PRIVATE: private, loopback, link-local, CGNAT, unspecified, multicast. */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

for (const [net, bits] of [
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2001::', 32], // Teredo: its embedded client address is obscured
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (!family) return true;
  if (family === 4) return blocked.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  return v4 ? blocked.check(v4, 'ipv4') : blocked.check(address, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address carries, in the forms that reach it: IPv4-mapped
 * (::ffff:a.b.c.d, also written in hex), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and
 * 6to4 (2002::/16); null for any other.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part read as two groups); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const read = (part: string) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const head = read(halves[0]);
  const tail = halves.length === 2 ? read(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array.from({ length: fill }, () => 0), ...tail];
  return groups.length === 8 && groups.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) ? groups : null;
}

/** Why a receiver URL is refused, or null (checked when registered and again before each attempt). */
export async function urlRefusal(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only http and https URLs';
  if (url.username || url.password) return 'no credentials in the URL (the signature authenticates us)';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : await dns.lookup(host, { all: true }).then(
        (r) => r.map((a) => a.address),
        () => null,
      );
  if (!addresses) return `${host} does not resolve`;
  if (addresses.some(isPrivateAddress)) return `${host} is a private, loopback or link-local address`;
  return null;
}

/** A dns.lookup for http.request that refuses private addresses at connect time (no rebinding between check and connect). */
export function guardedLookup(allowPrivate: boolean): typeof lookup {
  return ((
    hostname: string,
    options: object,
    callback: (err: Error | null, address: string | Array<{ address: string; family: number }>, family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as Array<{ address: string; family: number }>;
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) {
        return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), '');
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  }) as unknown as typeof lookup;
}
