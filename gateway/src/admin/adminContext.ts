import type { Logger, RequestOutcome } from '@fi/shared';
import type { SessionCheck } from '../auth/identityClient';

/** One request to the admin API (POST /admin/graphql), from a page of the web application. */
export interface AdminContext {
  requestId: string;
  logger: Logger;
  outcome: RequestOutcome;
  /**
   * What the identity service reads of the page's request, and no more (never an Authorization header):
   * its cookie, CSRF token and origin, and the client's address appended as X-Forwarded-For, so sign-in
   * throttling and the audit log see the real client.
   */
  pageHeaders: Record<string, string>;
  /** Whether the page sent a session cookie at all (without one there is no member to ask about). */
  hasSessionCookie: boolean;
  /** The signed-in member behind the session cookie, asked of the identity service at most once per request. */
  session(): Promise<SessionCheck>;
  /** The Set-Cookie of the identity service's answer (a sign-in, a sign-out), passed on to the page. */
  setCookie: string | undefined;
}
