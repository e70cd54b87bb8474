import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import type { Logger, RouteHandler } from '@fi/shared';
import { clientAddress } from '../auth/clientAddress';

/** The public SCIM base: an organization's identity provider is given `{this gateway's origin}/scim/v2`. */
export const SCIM_PATH = '/scim/v2';

const PASSED_REQUEST_HEADERS = ['authorization', 'content-type', 'content-length', 'accept'];
const PASSED_RESPONSE_HEADERS = ['content-type', 'location', 'www-authenticate', 'retry-after', 'cache-control'];

/**
 * Forwards SCIM requests to the identity service, which owns the people and the tokens and answers in SCIM's
 * own form (the gateway's GraphQL error form would mean nothing to Okta or Entra). The token goes through
 * untouched, checked there on every request; the client's address is appended, as for the admin API.
 */
export function scimProxyRoutes(options: {
  identityUrl: string;
  timeoutMs: number;
  trustProxy: boolean;
  logger: Logger;
}): Record<string, RouteHandler> {
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const headers: Record<string, string> = {
      'x-forwarded-for': clientAddress(req.headers, req.socket.remoteAddress ?? '', options.trustProxy),
    };
    for (const name of PASSED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = req.method ?? 'GET';
    let answer;
    try {
      answer = await request(new URL(req.url ?? SCIM_PATH, options.identityUrl), {
        method: method as 'GET',
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : req,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    } catch (error) {
      options.logger.warn({ err: error }, 'SCIM: the identity service did not answer');
      res.writeHead(503, { 'content-type': 'application/scim+json; charset=utf-8', 'retry-after': '1' });
      res.end(
        JSON.stringify({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '503',
          detail: 'The identity service is unavailable; retry shortly',
        }),
      );
      return;
    }
    const passed: Record<string, string> = {};
    for (const name of PASSED_RESPONSE_HEADERS) {
      const value = answer.headers[name];
      if (typeof value === 'string') passed[name] = value;
    }
    res.writeHead(answer.statusCode, passed);
    res.end(Buffer.from(await answer.body.arrayBuffer()));
  };
  return { [SCIM_PATH]: route };
}
