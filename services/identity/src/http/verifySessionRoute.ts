import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteHandler } from '@fi/shared';
import { memberPrincipal, type SessionService } from '../domain/sessionService';
import { csrfMatches, sessionTokenOf } from './sessionCookie';

/**
 * Where the gateway asks who the session cookie of an admin request stands for (never exposed outside the
 * cluster), with the request's cookie and x-csrf-token headers: `{ principal, csrfValid }`, the signed-in
 * member as the services' admin schemas are told (null without a live session), and whether the CSRF
 * token is the session's. The same rules as this service's own admin schema; nothing is logged.
 */
export const VERIFY_SESSION_PATH = '/internal/verify-session';

export function verifySessionRoute(sessions: SessionService): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const session = await sessions.resolve(sessionTokenOf(req.headers));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(
      JSON.stringify({
        principal: session ? memberPrincipal(session) : null,
        csrfValid: csrfMatches(req.headers, session),
      }),
    );
  };
}
