import type { IncomingHttpHeaders } from 'node:http';
import { cookieValue } from '../http';
import { SSO_ATTEMPT_TTL_MS } from './ssoSignIn';

export const SSO_BINDING_COOKIE = 'fi_sso';

export const ssoBindingOf = (headers: IncomingHttpHeaders): string | undefined =>
  cookieValue(headers, SSO_BINDING_COOKIE);

/**
 * Ties a sign-in to the browser that started it: only that browser can finish it, so nobody can slip
 * their own provider answer into someone else's browser. HttpOnly; SameSite=Lax, Max-Age the attempt's
 * life. The session cookie is set by the finishing request, which answers with it instead.
 */
export function ssoBindingCookie(binding: string, secure: boolean): string {
  return [
    `${SSO_BINDING_COOKIE}=${binding}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.floor(SSO_ATTEMPT_TTL_MS / 1000)}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
