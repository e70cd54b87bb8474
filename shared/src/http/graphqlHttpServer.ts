import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import { ErrorCode } from '../errors';
import type { Logger } from '../logger';
import { HttpError, readJsonBody } from './body';
import { REQUEST_ID_HEADER } from './headers';
import { requestIdFrom } from './requestId';
import { checkReadiness, type ReadinessCheck } from './readiness';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface RequestInfo {
  requestId: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  logger: Logger;
  /** The peer's address (a proxy's, behind one). */
  remoteAddress: string;
  /** How the request ended; whoever learns it fills it in, and `observe` reads it at the end. */
  outcome: RequestOutcome;
  /** Runs `finish` once the response has been sent or the request failed, whatever happened (e.g. to give back a place). */
  onDone(finish: () => void): void;
}

export interface RequestOutcome {
  /** Root fields of the operation, or `invalid` when it could not be read. */
  operation: string;
  /** OK, or the code of the first error. */
  code: string;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface GraphQLHttpOptions<C extends BaseContext> {
  apollo: ApolloServer<C>;
  logger: Logger;
  buildContext: (info: RequestInfo) => Promise<C>;
  readinessChecks: Record<string, ReadinessCheck>;
  maxBodyBytes?: number;
  /** More GraphQL endpoints beside /graphql, e.g. a service's admin schema at /admin/graphql (see graphqlEndpoint). */
  graphqlRoutes?: Record<string, GraphQLEndpoint>;
  /** Extra GET routes, e.g. /metrics. */
  routes?: Record<string, RouteHandler>;
  /** Extra POST routes, e.g. the identity service's key verification. */
  postRoutes?: Record<string, RouteHandler>;
  /**
   * Routes that answer every method on a path and everything under it (`/scim/v2` takes `/scim/v2/Users/1`),
   * for protocols with resources in the path, e.g. SCIM.
   */
  prefixRoutes?: Record<string, RouteHandler>;
  /** Answers every other GET, e.g. the gateway's web application pages; without it they are 404. */
  getFallback?: RouteHandler;
  /** Extra figures for the /health and /ready bodies, e.g. where rate limits are counted. */
  status?: () => Record<string, unknown>;
  /** Called once per GraphQL request (any endpoint) when its response is sent. */
  observe?: (outcome: RequestOutcome, seconds: number) => void;
}

/** What one GraphQL request carries into its endpoint from the HTTP handler. */
interface EndpointRequest {
  path: string;
  requestId: string;
  logger: Logger;
  outcome: RequestOutcome;
  finishers: Array<() => void>;
}

/** A GraphQL endpoint: one Apollo server with its own request context, body limit and checks. */
export interface GraphQLEndpoint {
  handle(req: IncomingMessage, res: ServerResponse, request: EndpointRequest): Promise<void>;
}

/** POST with a JSON body only, at most `maxBodyBytes`; the answer's headers and status are Apollo's. */
export function graphqlEndpoint<C extends BaseContext>(
  apollo: ApolloServer<C>,
  buildContext: (info: RequestInfo) => Promise<C>,
  maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
): GraphQLEndpoint {
  return {
    async handle(req, res, { path, requestId, logger, outcome, finishers }) {
      if (req.method !== 'POST') throw new HttpError(405, `Only POST is accepted on ${path}`, { allow: 'POST' });
      const contentType = req.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(contentType)) throw new HttpError(415, 'Content-Type must be application/json');
      const body = await readJsonBody(req, maxBodyBytes);
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: 'POST', headers, search: '', body },
        context: () =>
          buildContext({
            requestId,
            headers: req.headers,
            body,
            logger,
            remoteAddress: req.socket.remoteAddress ?? '',
            outcome,
            onDone: (finish) => finishers.push(finish),
          }),
      });
      for (const [name, value] of response.headers) res.setHeader(name, value);
      res.statusCode = response.status ?? 200;
      if (response.body.kind === 'complete') {
        res.end(response.body.string);
        return;
      }
      for await (const chunk of response.body.asyncIterator) res.write(chunk);
      res.end();
    },
  };
}

export interface RunningHttpServer {
  server: http.Server;
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (bounded), then resolves. */
  close(timeoutMs?: number): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

function errorBody(message: string, code: ErrorCode, extensions: Record<string, unknown> = {}) {
  return { errors: [{ message, extensions: { code, ...extensions } }] };
}

/** The prefix route `path` falls under (the prefix itself or a path below it), if any. */
function prefixRoute(routes: Record<string, RouteHandler> | undefined, path: string): RouteHandler | undefined {
  if (!routes) return undefined;
  const prefix = Object.keys(routes).find((candidate) => path === candidate || path.startsWith(`${candidate}/`));
  return prefix === undefined ? undefined : routes[prefix];
}

export function createGraphQLHttpHandler<C extends BaseContext>(options: GraphQLHttpOptions<C>) {
  const endpoints: Record<string, GraphQLEndpoint> = {
    ...options.graphqlRoutes,
    '/graphql': graphqlEndpoint(options.apollo, options.buildContext, options.maxBodyBytes),
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    const logger = options.logger.child({ requestId });
    res.setHeader(REQUEST_ID_HEADER, requestId);
    // Every answer is what its Content-Type says: a browser must not guess HTML or script out of a JSON body.
    res.setHeader('x-content-type-options', 'nosniff');
    const path = (req.url ?? '/').split('?')[0];
    const outcome: RequestOutcome = { operation: 'invalid', code: 'OK' };
    const finishers: Array<() => void> = [];
    try {
      const endpoint = Object.hasOwn(endpoints, path) ? endpoints[path] : undefined;
      const prefixed = prefixRoute(options.prefixRoutes, path);
      if (endpoint) await endpoint.handle(req, res, { path, requestId, logger, outcome, finishers });
      else if (path === '/health' && req.method === 'GET') sendJson(res, 200, { status: 'ok', ...options.status?.() });
      else if (path === '/ready' && req.method === 'GET') {
        const report = await checkReadiness(options.readinessChecks);
        sendJson(res, report.ready ? 200 : 503, { ...report, ...options.status?.() });
      } else if (req.method === 'GET' && options.routes?.[path]) await options.routes[path](req, res);
      else if (req.method === 'POST' && options.postRoutes?.[path]) await options.postRoutes[path](req, res);
      else if (prefixed) await prefixed(req, res);
      else if (req.method === 'GET' && options.getFallback) await options.getFallback(req, res);
      else sendJson(res, 404, errorBody(`No route ${req.method ?? ''} ${path}`, ErrorCode.NOT_FOUND));
    } catch (error) {
      if (error instanceof HttpError) {
        outcome.code = error.code;
        sendJson(res, error.status, errorBody(error.message, error.code, error.extensions), error.headers);
      } else {
        outcome.code = ErrorCode.INTERNAL_SERVER_ERROR;
        logger.error({ err: error }, 'unhandled error in HTTP handler');
        if (!res.headersSent) sendJson(res, 500, errorBody('Internal server error', ErrorCode.INTERNAL_SERVER_ERROR));
        else res.end();
      }
    } finally {
      for (const finish of finishers) finish();
      if (Object.hasOwn(endpoints, path)) {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        options.observe?.(outcome, seconds);
        logger.info(
          {
            method: req.method,
            path,
            status: res.statusCode,
            operation: outcome.operation,
            code: outcome.code,
            durationMs: Math.round(seconds * 1e5) / 100,
          },
          'request',
        );
      }
    }
  };
}

export async function listenHttp(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port: number,
  host: string,
): Promise<RunningHttpServer> {
  const server = http.createServer((req, res) => void handler(req, res));
  // Longer than typical load-balancer idle timeouts, so the proxy closes idle connections first.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    close: (timeoutMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          clearInterval(sweeper);
          server.closeAllConnections();
          resolve();
        }, timeoutMs);
        force.unref();
        // Keep-alive connections become idle as their in-flight requests finish; close each as it does.
        const sweeper = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweeper);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
