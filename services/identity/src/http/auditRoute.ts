import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isPlainObject, readJsonBody, type RouteHandler } from '@fi/shared';
import type { IdentityRepositories } from '../data/repositories';
import { recordServiceAudit } from '../domain/serviceAudit';

/**
 * Where another service records a change it made in the organization's audit log (the integrations service:
 * a connection added, paused, removed...): `{ orgId, memberId, action, target }`, answered 204. Never exposed
 * outside the cluster; like /internal/key-live, the network policies name who may call it.
 */
export const AUDIT_PATH = '/internal/audit';

const textOrNull = (value: unknown) => (typeof value === 'string' ? value : value === null ? null : undefined);

export function auditRoute(repositories: IdentityRepositories): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJsonBody(req, 4_096);
    const memberId = isPlainObject(body) ? textOrNull(body.memberId) : undefined;
    const target = isPlainObject(body) ? textOrNull(body.target) : undefined;
    if (
      !isPlainObject(body) ||
      typeof body.orgId !== 'string' ||
      typeof body.action !== 'string' ||
      memberId === undefined ||
      target === undefined
    )
      throw new HttpError(400, 'Expected a JSON body { "orgId", "memberId" (or null), "action", "target" (or null) }');
    try {
      await recordServiceAudit(repositories, { orgId: body.orgId, memberId, action: body.action, target });
    } catch (error) {
      if (error instanceof Error && 'extensions' in error) throw new HttpError(400, error.message);
      throw error;
    }
    res.writeHead(204, { 'cache-control': 'no-store' });
    res.end();
  };
}
