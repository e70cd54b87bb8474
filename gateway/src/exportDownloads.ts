import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { EXPORT_DOWNLOAD_PATH, unavailableHttpError, type Logger, type RouteHandler } from '@fi/shared';

/** Each exported resource and the subgraph that owns its exports. */
export const EXPORT_OWNERS = { feedback: 'feedback', contacts: 'contacts', accounts: 'accounts' } as const;

const PASSED_HEADERS = ['content-type', 'content-length', 'content-disposition', 'cache-control'];

/**
 * GET /exports/<resource>?token=...: the public address of export files. The gateway is the only public
 * entry, so it streams the owning service's file through (never holding more than a network buffer);
 * the token is the service's to check.
 */
export function exportDownloadRoutes(
  subgraphUrls: Record<string, string>,
  timeoutMs: number,
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
