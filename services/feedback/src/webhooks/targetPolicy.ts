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
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) nonPublic.addSubnet(net, bits, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, compatible, NAT64 `64:ff9b::`), if any. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|::|64:ff9b::)(?:0{1,4}:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
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
  if (raw.length > MAX_URL_LENGTH) throw new TargetRefused(`url must be at most ${MAX_URL_LENGTH} characters (got ${raw.length})`);
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
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const usable = wanted.length > 0 ? wanted : addresses;
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'ETARGETREFUSED' }), '', 0),
    );
  };
}
