import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJsonBody, type Logger, type RouteHandler } from '@fi/shared';
import { discovery, resourceTypes, serviceProviderConfig } from './scimDiscovery';
import { asScimError, ScimError } from './scimErrors';
import type { ScimGroups } from './scimGroups';
import { groupResource, listResponse, userResource } from './scimResources';
import type { ScimTokenService } from './scimTokens';
import type { ScimCaller, ScimUsers } from './scimUsers';
import { parsePatch, parseUser } from './userInput';

/** Where the identity service serves SCIM; the gateway forwards its own /scim/v2 here (docs/sso.md). */
export const SCIM_PATH = '/scim/v2';
const CONTENT_TYPE = 'application/scim+json; charset=utf-8';
const MAX_BODY_BYTES = 256 * 1024;

export interface ScimRouteDeps {
  tokens: ScimTokenService;
  users: ScimUsers;
  groups: ScimGroups;
  /** The public address of the SCIM base (`PUBLIC_URL` + /scim/v2), for resources' `meta.location`. */
  baseUrl: string;
  /** The client's address as the gateway saw it. */
  addressOf: (req: IncomingMessage) => string;
  logger: Logger;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store', ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

const unauthorized = () =>
  new ScimError(401, 'A valid SCIM bearer token is required', undefined, { 'www-authenticate': 'Bearer realm="scim"' });
const methodNotAllowed = (method: string, path: string) => new ScimError(405, `${method} is not supported on ${path}`);

/** RFC 7644 section 3.8: application/scim+json, or application/json as many clients send. */
async function readBody(req: IncomingMessage): Promise<unknown> {
  if (!/^application\/(scim\+)?json\b/i.test(req.headers['content-type'] ?? ''))
    throw new ScimError(415, 'Content-Type must be application/scim+json');
  try {
    return await readJsonBody(req, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof HttpError)
      throw new ScimError(error.status, error.message, error.status === 400 ? 'invalidSyntax' : undefined);
    throw error;
  }
}

/**
 * SCIM 2.0 (RFC 7644) for an organization's identity provider: Users, Groups (the roles) and the discovery
 * endpoints. Every request but discovery carries the organization's bearer token, which alone names the
 * organization: nothing of another is reachable with it. Every answer, refusals included, is SCIM JSON.
 */
export function scimRoute(deps: ScimRouteDeps): RouteHandler {
  const { tokens, users, groups, baseUrl } = deps;

  const authenticate = async (req: IncomingMessage): Promise<ScimCaller> => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const token = match ? await tokens.verify(match[1]) : null;
    if (!token) throw unauthorized();
    return { token, address: deps.addressOf(req) };
  };

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    parts: string[],
    query: URLSearchParams,
  ) => {
    const [resource, id, ...rest] = parts;
    const path = `${SCIM_PATH}/${parts.join('/')}`;
    if (rest.length > 0) throw new ScimError(404, `No resource at ${path}`);
    if (resource === 'ServiceProviderConfig' && id === undefined) {
      if (method !== 'GET') throw methodNotAllowed(method, path);
      return send(res, 200, serviceProviderConfig(baseUrl));
    }
    if (resource === 'Schemas' || resource === 'ResourceTypes') {
      if (method !== 'GET') throw methodNotAllowed(method, path);
      const found = discovery(resource, baseUrl, id === undefined ? undefined : decodeURIComponent(id));
      if (!found) throw new ScimError(404, `No ${resource === 'Schemas' ? 'schema' : 'resource type'} ${id}`);
      return send(res, 200, found);
    }
    if (resource !== 'Users' && resource !== 'Groups') {
      throw new ScimError(
        resource === 'Bulk' || resource === 'Me' ? 501 : 404,
        `${path} is not supported; the resources are ${resourceTypes(baseUrl)
          .map((type) => type.endpoint)
          .join(' and ')}`,
      );
    }
    const caller = await authenticate(req);
    const resourceId = id === undefined ? undefined : decodeURIComponent(id);
    if (resource === 'Users') {
      const show = (user: Parameters<typeof userResource>[0]) => userResource(user, baseUrl);
      if (resourceId === undefined) {
        if (method === 'GET') {
          const page = await users.list(caller, query);
          return send(res, 200, listResponse(page.total, page.skip, page.items.map(show)));
        }
        if (method === 'POST') {
          const created = show(await users.create(caller, parseUser(await readBody(req))));
          return send(res, 201, created, { location: created.meta.location });
        }
        throw methodNotAllowed(method, path);
      }
      if (method === 'GET') return send(res, 200, show(await users.get(caller, resourceId)));
      if (method === 'PUT')
        return send(res, 200, show(await users.replace(caller, resourceId, parseUser(await readBody(req)))));
      if (method === 'PATCH')
        return send(res, 200, show(await users.patch(caller, resourceId, parsePatch(await readBody(req)))));
      if (method === 'DELETE') {
        await users.remove(caller, resourceId);
        res.writeHead(204, { 'cache-control': 'no-store' });
        return void res.end();
      }
      throw methodNotAllowed(method, path);
    }
    const withMembers = !(query.get('excludedAttributes') ?? '')
      .toLowerCase()
      .split(',')
      .map((name) => name.trim())
      .includes('members');
    const show = (group: Parameters<typeof groupResource>[0]) => groupResource(group, baseUrl, withMembers);
    if (resourceId === undefined) {
      if (method === 'GET') {
        const page = await groups.list(caller, query);
        return send(res, 200, listResponse(page.total, page.skip, page.items.map(show)));
      }
      if (method === 'POST')
        throw new ScimError(
          409,
          'The groups are the roles owner, admin, member and viewer; link to one of them',
          'uniqueness',
        );
      throw methodNotAllowed(method, path);
    }
    if (method === 'GET') return send(res, 200, show(await groups.get(caller, resourceId)));
    if (method === 'PATCH') {
      const group = await groups.patch(caller, resourceId, parsePatch(await readBody(req)));
      return send(res, 200, show(group));
    }
    if (method === 'PUT') return send(res, 200, show(await groups.replace(caller, resourceId, await readBody(req))));
    if (method === 'DELETE') throw new ScimError(400, 'The groups are the roles; they are not deleted', 'mutability');
    throw methodNotAllowed(method, path);
  };

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const parts = url.pathname.slice(SCIM_PATH.length).split('/').filter(Boolean);
    try {
      await answer(req, res, req.method ?? 'GET', parts, url.searchParams);
    } catch (error) {
      const refusal = asScimError(error);
      if (!refusal) {
        deps.logger.error({ err: error, method: req.method, path: url.pathname }, 'SCIM request failed');
        send(res, 500, new ScimError(500, 'Internal server error').body());
        return;
      }
      send(res, refusal.status, refusal.body(), refusal.headers);
    }
  };
}
