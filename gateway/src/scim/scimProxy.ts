import type { Logger, RouteHandler } from '@fi/shared';
import { identityPassThrough } from '../auth/identityPassThrough';

/** The public SCIM base: an organization's identity provider is given `{this gateway's origin}/scim/v2`. */
export const SCIM_PATH = '/scim/v2';

/**
 * Forwards SCIM requests to the identity service, which owns the people and the tokens and answers in SCIM's
 * own form (the gateway's GraphQL error form would mean nothing to Okta or Entra). The token goes through
 * untouched, checked there on every request.
 */
export function scimProxyRoutes(options: {
  identityUrl: string;
  timeoutMs: number;
  trustProxy: boolean;
  logger: Logger;
}): Record<string, RouteHandler> {
  const route = identityPassThrough({
    ...options,
    requestHeaders: ['authorization', 'content-type', 'content-length', 'accept'],
    responseHeaders: ['content-type', 'location', 'www-authenticate', 'retry-after', 'cache-control'],
    unavailable: (res, error) => {
      options.logger.warn({ err: error }, 'SCIM: the identity service did not answer');
      res.writeHead(503, { 'content-type': 'application/scim+json; charset=utf-8', 'retry-after': '1' });
      res.end(
        JSON.stringify({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '503',
          detail: 'The identity service is unavailable; retry shortly',
        }),
      );
    },
  });
  return { [SCIM_PATH]: route };
}
