import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import { clientAddress } from './clientAddress';

export interface PassThroughOptions {
  identityUrl: string;
  timeoutMs: number;
  trustProxy: boolean;
  /** The request headers that go on; the client's address is appended, as for the admin API. */
  requestHeaders: readonly string[];
  /** The identity service's response headers the caller sees. */
  responseHeaders: readonly string[];
  /** Answers the caller when the identity service does not, in the caller's protocol's own form. */
  unavailable: (res: ServerResponse, error: unknown) => void | Promise<void>;
}

const picked = (from: Record<string, unknown>, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(names.flatMap((name) => (typeof from[name] === 'string' ? [[name, from[name] as string]] : [])));

/**
 * Forwards a request unchanged (method, path, body) to the identity service and its answer back: the
 * protocols the identity service speaks itself behind the gateway (SCIM, SAML's endpoints), whose callers
 * expect that protocol's answers, not the gateway's GraphQL form.
 */
export function identityPassThrough(options: PassThroughOptions, path?: string) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    let answer;
    try {
      answer = await request(new URL(path ?? req.url ?? '/', options.identityUrl), {
        method: method as 'GET',
        headers: {
          ...picked(req.headers, options.requestHeaders),
          'x-forwarded-for': clientAddress(req.headers, req.socket.remoteAddress ?? '', options.trustProxy),
        },
        body: method === 'GET' || method === 'HEAD' ? undefined : req,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    } catch (error) {
      await options.unavailable(res, error);
      return;
    }
    res.writeHead(answer.statusCode, picked(answer.headers, options.responseHeaders));
    res.end(Buffer.from(await answer.body.arrayBuffer()));
  };
}
