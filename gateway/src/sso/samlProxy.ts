import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import { unavailableHttpError, type Logger, type RouteHandler } from '@fi/shared';
import { clientAddress } from '../auth/clientAddress';

/** SAML's public addresses on the web origin (docs/sso.md), answered by the identity service. */
export const SAML_METADATA_PATH = '/auth/saml/metadata';
export const SAML_ACS_PATH = '/auth/saml/acs';

const PASSED_REQUEST_HEADERS = ['content-type', 'content-length'];
const PASSED_RESPONSE_HEADERS = ['content-type', 'location', 'cache-control'];

/**
 * Forwards our SAML metadata (GET) and the identity provider's POST to the assertion consumer to the
 * identity service, which checks the assertion and answers with the redirect to the completion page. Only
 * the form's headers go on, with the client's address appended, as for the admin API.
 */
export function samlProxyRoutes(options: {
  identityUrl: string;
  timeoutMs: number;
  trustProxy: boolean;
  logger: Logger;
}): { get: Record<string, RouteHandler>; post: Record<string, RouteHandler> } {
  const forward = (path: string) => async (req: IncomingMessage, res: ServerResponse) => {
    const headers: Record<string, string> = {
      'x-forwarded-for': clientAddress(req.headers, req.socket.remoteAddress ?? '', options.trustProxy),
    };
    for (const name of PASSED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    let answer;
    try {
      answer = await request(new URL(path, options.identityUrl), {
        method: req.method === 'POST' ? 'POST' : 'GET',
        headers,
        body: req.method === 'POST' ? req : undefined,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    } catch (error) {
      options.logger.warn({ err: error }, 'SAML: the identity service did not answer');
      throw unavailableHttpError('The identity service is unavailable; retry shortly', { service: 'identity' });
    }
    const passed: Record<string, string> = {};
    for (const name of PASSED_RESPONSE_HEADERS) {
      const value = answer.headers[name];
      if (typeof value === 'string') passed[name] = value;
    }
    res.writeHead(answer.statusCode, passed);
    res.end(Buffer.from(await answer.body.arrayBuffer()));
  };
  return {
    get: { [SAML_METADATA_PATH]: forward(SAML_METADATA_PATH) },
    post: { [SAML_ACS_PATH]: forward(SAML_ACS_PATH) },
  };
}
