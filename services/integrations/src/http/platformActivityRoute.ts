import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, type RouteHandler } from '@fi/shared';
import type { Connections } from '../domain/connections';

/**
 * Where the feedback service's alert detector asks how an organization's connected platforms send:
 * `GET /internal/platform-activity?orgId=...` answers `{ platforms: [{ id, kind, name, status, itemsReceived,
 * lastEventAt, createdAt }] }` (never a secret, a token or a URL). The connections are this service's data:
 * the detector never reads them elsewhere. Never exposed outside the cluster, as identity's internal routes.
 */
export const PLATFORM_ACTIVITY_PATH = '/internal/platform-activity';

export function platformActivityRoute(connections: Connections): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const orgId = new URL(req.url ?? '/', 'http://internal').searchParams.get('orgId');
    if (!orgId) throw new HttpError(400, 'Expected ?orgId=...');
    const platforms = (await connections.list(orgId)).map(
      ({ id, kind, name, status, itemsReceived, lastEventAt, createdAt }) => ({
        id,
        kind,
        name,
        status,
        itemsReceived,
        lastEventAt,
        createdAt,
      }),
    );
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ platforms }));
  };
}
