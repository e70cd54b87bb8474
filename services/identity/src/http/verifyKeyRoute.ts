import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isPlainObject, readJsonBody, type RouteHandler } from '@fi/shared';
import type { KeyService } from '../domain/keyService';

/** Where the gateway asks who an API key stands for (never exposed outside the cluster). */
export const VERIFY_KEY_PATH = '/internal/verify-key';

/** Answers `{ principal }` (null for an invalid key); the key is never logged. */
export function verifyKeyRoute(keys: KeyService): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJsonBody(req, 4_096);
    if (!isPlainObject(body) || !('key' in body)) throw new HttpError(400, 'Expected a JSON body { "key": "..." }');
    const principal = await keys.verify(body.key);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ principal }));
  };
}
