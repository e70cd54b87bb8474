import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isPlainObject, readJsonBody, type RouteHandler } from '@fi/shared';
import type { KeyService } from '../domain/keyService';

/**
 * Where the gateway asks, by its id, whether a key still stands behind what it made (an export's download
 * link): `{ live }`. Never exposed outside the cluster; the id is not a secret, the key itself never travels.
 */
export const KEY_LIVE_PATH = '/internal/key-live';

export function keyLiveRoute(keys: KeyService): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJsonBody(req, 4_096);
    if (!isPlainObject(body) || typeof body.keyId !== 'string' || typeof body.orgId !== 'string')
      throw new HttpError(400, 'Expected a JSON body { "keyId": "...", "orgId": "..." }');
    const live = await keys.isLive(body.keyId, body.orgId);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ live }));
  };
}
