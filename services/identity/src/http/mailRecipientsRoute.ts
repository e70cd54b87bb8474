import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isPlainObject, readJsonBody, type RouteHandler } from '@fi/shared';
import type { MemberRepository } from '../data/memberRepository';

/**
 * Where the feedback service's worker asks who of an organization opted in to a mail (`list`: alerts or
 * digest): `{ recipients: [{ email, name }] }`. The members and their choices are this service's data: the
 * worker never reads them elsewhere. Never exposed outside the cluster, as the other internal routes.
 */
export const MAIL_RECIPIENTS_PATH = '/internal/mail-recipients';

export function mailRecipientsRoute(members: MemberRepository): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJsonBody(req, 4_096);
    if (!isPlainObject(body) || typeof body.orgId !== 'string' || (body.list !== 'alerts' && body.list !== 'digest'))
      throw new HttpError(400, 'Expected a JSON body { "orgId": "...", "list": "alerts" | "digest" }');
    const recipients = await members.optedIn(body.orgId, body.list);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ recipients }));
  };
}
