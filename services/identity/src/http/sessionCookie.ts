import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const SESSION_COOKIE = 'fi_session';
export const CSRF_HEADER = 'x-csrf-token';

/** The value of the cookie `cookieName` from the Cookie header, if any. */
export function cookieValue(headers: IncomingHttpHeaders, cookieName: string): string | undefined {
  for (const part of (headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) return value.join('=') || undefined;
  }
  return undefined;
}

/** The session token from the Cookie header, if any. */
export const sessionTokenOf = (headers: IncomingHttpHeaders): string | undefined =>
  cookieValue(headers, SESSION_COOKIE);

/**
 * Whether the request's x-csrf-token is the session's CSRF token (compared in constant time): only a page
 * of our own origin, which read it from the session, can send it. False without a session.
 */
export function csrfMatches(headers: IncomingHttpHeaders, session: { csrfToken: string } | null): boolean {
  const header = headers[CSRF_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  if (!session || given === undefined) return false;
  const left = Buffer.from(given);
  const right = Buffer.from(session.csrfToken);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure outside
 * development; it lives no longer than the session's absolute end.
 */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAge}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return [
    `${SESSION_COOKIE}=`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    'Max-Age=0',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
