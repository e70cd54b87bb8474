import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import {
  EXPORT_DOWNLOAD_PATH,
  EXPORT_KEY_HEADER,
  EXPORT_ORG_HEADER,
  sendUnknownExportLink,
  unavailableHttpError,
  type Logger,
  type RouteHandler,
} from '@fi/shared';
import { IdentityUnavailableError, type IdentityClient } from './auth/identityClient';

/** Each exported resource and the subgraph that owns its exports. */
export const EXPORT_OWNERS = { feedback: 'feedback', contacts: 'contacts', accounts: 'accounts' } as const;

const PASSED_HEADERS = ['content-type', 'content-length', 'content-disposition', 'cache-control'];

/**
 * GET /exports/<resource>?token=...: the public address of export files. The gateway is the only public
 * entry, so it streams the owning service's file through (never holding more than a network buffer);
 * the token is the service's to check. The service names the key that started the export, and the file
 * is passed on only while the identity service says that key is live (not revoked, its creator still a
 * member): otherwise the link answers as an unknown one.
 */
export function exportDownloadRoutes(
  subgraphUrls: Record<string, string>,
  timeoutMs: number,
  identity: Pick<IdentityClient, 'keyIsLive'>,
  logger: Logger,
): Record<string, RouteHandler> {
  const route = (subgraph: string) => async (req: IncomingMessage, res: ServerResponse) => {
    const search = new URL(req.url ?? '/', 'http://localhost').search;
    let answer;
    try {
      answer = await request(new URL(`${EXPORT_DOWNLOAD_PATH}${search}`, subgraphUrls[subgraph]), {
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      logger.warn({ err: error, subgraph }, 'export download: service unreachable');
      throw unavailableHttpError(`The ${subgraph} service is unavailable; retry shortly`, { service: subgraph });
    }
    // Not a byte of a file goes out before its key is known to be live; an unwanted body is dropped
    // (destroying it aborts the service's stream, whose error is expected and ignored).
    const discard = () => answer.body.on('error', () => undefined).destroy();
    const live = await madeByLiveKey(answer.headers, identity, subgraph, logger).catch((error: unknown) => {
      discard();
      throw error;
    });
    if (!live) {
      discard();
      sendUnknownExportLink(res);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = answer.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    res.writeHead(answer.statusCode, headers);
    try {
      await pipeline(answer.body, res);
    } catch (error) {
      // The client went away, or the service's stream broke: the short body tells the client.
      logger.info({ err: error, subgraph }, 'export download ended early');
      res.destroy();
    }
  };
  return Object.fromEntries(
    Object.entries(EXPORT_OWNERS).map(([resource, subgraph]) => [`/exports/${resource}`, route(subgraph)]),
  );
}

/** True for a file whose key is live, or one started before links were tied to keys (no key named). */
async function madeByLiveKey(
  headers: Record<string, string | string[] | undefined>,
  identity: Pick<IdentityClient, 'keyIsLive'>,
  subgraph: string,
  logger: Logger,
): Promise<boolean> {
  const keyId = headers[EXPORT_KEY_HEADER];
  const orgId = headers[EXPORT_ORG_HEADER];
  if (typeof keyId !== 'string' || typeof orgId !== 'string') return true;
  try {
    return await identity.keyIsLive(keyId, orgId);
  } catch (error) {
    if (!(error instanceof IdentityUnavailableError)) throw error;
    logger.warn({ err: error, subgraph }, 'export download: the identity service did not answer');
    throw unavailableHttpError('The identity service is unavailable; retry shortly', { service: 'identity' });
  }
}
