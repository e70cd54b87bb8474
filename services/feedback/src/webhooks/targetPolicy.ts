import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export type PrivateTargets = 'refuse' | 'loopback' | 'allow';

export interface TargetPolicy {
  allowHttp: boolean;
  privateTargets: PrivateTargets;
}

/** Why a URL or address may not be a webhook target; the message is shown to the customer. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

export const MAX_URL_LENGTH = 2048;

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

// Every range that is not the public internet (IANA special-purpose registries): private, loopback,
// link-local (cloud metadata lives at 169.254.169.254), shared, documentation, multicast, reserved.
const nonPublic = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  // 64:ff9b:1::/48 is NAT64 for local use (RFC 8215): it only ever leads to private networks.
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(net, bits, 'ipv6');

/** The 16 bytes of an IPv6 address (`isIP` already said it is one), trailing dotted IPv4 included. */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const words =
    tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 255]);
}

/**
 * The IPv4 address an IPv6 address carries and reaches, if any, in every form a host may route: mapped
 * (`::ffff:a.b.c.d`), translated (`::ffff:0:a.b.c.d`), compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`)
 * and 6to4 (`2002:aabb:ccdd::/48`). Written out in hex or dotted, as a URL parser leaves them.
 */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const v4 = (at: number) => bytes.slice(at, at + 4).join('.');
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(2);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return v4(12);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(12);
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return v4(12);
  // Compatible: but not :: and ::1 themselves, which are IPv6's own unspecified and loopback addresses.
  if (zeros(0, 12) && !zeros(12, 15)) return v4(12);
  return null;
}

/** Null when the policy lets the service connect to `address`; otherwise why not. */
export function refusalOf(address: string, policy: TargetPolicy): string | null {
  if (policy.privateTargets === 'allow') return null;
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [checked, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (!nonPublic.check(checked, type)) return null;
  if (policy.privateTargets === 'loopback' && loopback.check(checked, type)) return null;
  return `${address} is a private, loopback, link-local or reserved address`;
}

/** Checks the form of a webhook URL (not its addresses); returns it normalized. */
export function checkUrlForm(raw: string, policy: TargetPolicy): URL {
  if (raw.length > MAX_URL_LENGTH)
    throw new TargetRefused(`url must be at most ${MAX_URL_LENGTH} characters (got ${raw.length})`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new TargetRefused('url must be an absolute URL, e.g. https://example.com/webhooks');
  }
  const allowed = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol)) {
    throw new TargetRefused(policy.allowHttp ? 'url must use https or http' : 'url must use https');
  }
  if (url.username || url.password) throw new TargetRefused('url must not contain a user name or password');
  if (url.hash) throw new TargetRefused('url must not contain a fragment (#...)');
  return url;
}

/** Resolves `hostname` and returns the addresses, refusing when any of them is not allowed. */
export async function resolveAllowed(hostname: string, policy: TargetPolicy): Promise<LookupAddress[]> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  let addresses: LookupAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw new TargetRefused(`the host name ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`the host name ${host} does not resolve`);
  // Every address must pass: a name that resolves to one public and one private address could be
  // answered with the private one at delivery time.
  for (const { address } of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) throw new TargetRefused(`url resolves to ${refusal}; webhooks go to public addresses only`);
  }
  return addresses;
}

/** Checks a URL's form and every address its host resolves to now (the check at add time). */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = checkUrlForm(raw, policy);
  await resolveAllowed(url.hostname, policy);
  return url;
}

/**
 * A `lookup` for http(s).request that resolves once, checks, and hands the socket exactly the address
 * it checked: DNS rebinding (a name that answers public at add time and private later) cannot redirect
 * a delivery, because no second resolution happens between the check and the connect.
 */
export function checkedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((a) => a.family === options.family)
            : addresses;
        const usable = wanted.length > 0 ? wanted : addresses;
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'ETARGETREFUSED' }), '', 0),
    );
  };
}
