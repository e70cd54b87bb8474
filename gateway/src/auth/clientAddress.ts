import type { IncomingHttpHeaders } from 'node:http';

/** The peer, or behind a trusted proxy the address that proxy appended to X-Forwarded-For. */
export function clientAddress(headers: IncomingHttpHeaders, remoteAddress: string, trustProxy: boolean): string {
  const forwarded = headers['x-forwarded-for'];
  if (trustProxy && typeof forwarded === 'string') {
    const last = forwarded.split(',').pop()?.trim();
    if (last) return last;
  }
  return remoteAddress;
}
