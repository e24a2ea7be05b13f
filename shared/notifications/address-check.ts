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

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (!family) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
