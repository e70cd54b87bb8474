import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, REQUEST_ID_HEADER, unavailableHttpError, type RouteHandler } from '@fi/shared';
import { Pool } from 'undici';
import { clientAddress } from './clientAddress';

/** Where a same-origin web page reaches the identity service's admin API (sessions, members, keys, audit). */
export const ADMIN_GRAPHQL_PATH = '/admin/graphql';

const MAX_BODY_BYTES = 64 * 1024;
/** What the identity service needs of the page's request, and no more (never an Authorization header). */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'cookie', 'x-csrf-token', 'origin'];
const RETURNED_HEADERS = ['content-type', 'set-cookie', 'cache-control'];

/**
 * Passes POST /admin/graphql to the identity service, apart from the public /graphql (whose schema
 * knows nothing of sessions, members or keys). The session cookie and CSRF token go along; the client
 * address is appended as X-Forwarded-For, so sign-in throttling and the audit log see the real client.
 */
export function adminProxy(options: { identityUrl: string; timeoutMs: number; trustProxy: boolean }): RouteHandler & { close(): Promise<void> } {
  const pool = new Pool(new URL(options.identityUrl).origin, { connections: 16, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const headers: Record<string, string> = { 'x-forwarded-for': clientAddress(req.headers, req.socket.remoteAddress ?? '', options.trustProxy) };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const requestId = res.getHeader(REQUEST_ID_HEADER);
    if (typeof requestId === 'string') headers[REQUEST_ID_HEADER] = requestId;
    let answer;
    try {
      answer = await pool.request({ path: '/graphql', method: 'POST', headers, body });
    } catch {
      throw unavailableHttpError('The identity service is unavailable; retry shortly', { service: 'identity' });
    }
    const text = await answer.body.text();
    for (const name of RETURNED_HEADERS) {
      const value = answer.headers[name];
      if (value !== undefined) res.setHeader(name, value);
    }
    res.statusCode = answer.statusCode;
    res.end(text);
  };
  return Object.assign(handler, { close: () => pool.close() });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => (size > MAX_BODY_BYTES ? reject(new HttpError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes`)) : resolve(Buffer.concat(chunks))));
  });
}
