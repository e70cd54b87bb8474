import { isIP } from 'node:net';
import { badRequest } from '@fi/shared';

const isLoopback = (hostname: string): boolean => {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
};

/**
 * An identity provider's address: https, or http on a loopback address when SSO_ALLOW_LOOPBACK_HTTP is on
 * (development, tests). Anything else is refused naming the rule: tokens and secrets never cross a network
 * in the clear.
 */
export function checkProviderUrl(raw: string, allowLoopbackHttp: boolean, what = 'issuer'): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest(`The ${what} must be a URL (e.g. https://example.okta.com)`, { argument: what });
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && allowLoopbackHttp && isLoopback(url.hostname)) return url;
  throw badRequest(
    allowLoopbackHttp
      ? `The ${what} must be an https:// URL (http:// only on a loopback address)`
      : `The ${what} must be an https:// URL`,
    { argument: what },
  );
}

/** Whether requests to this provider may go over plain http (a loopback address, allowed by configuration). */
export const isPlainHttp = (url: URL) => url.protocol === 'http:';
