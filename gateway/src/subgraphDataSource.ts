import type { IncomingHttpHeaders } from 'node:http';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { BaseContext } from '@apollo/server';
import { errors as undiciErrors, Pool } from 'undici';
import { isPlainObject } from '@fi/shared';
import type { SubgraphOperation } from './auth/keyReferences';
import type { GatewayMetrics } from './metrics/gatewayMetrics';
import { SUBGRAPH_FAULT_CODES, subgraphUnavailable, type SubgraphFailure } from './subgraphErrors';

type GatewayGraphQLResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

/**
 * Who is calling, as a subgraph is told it: the public API signs the operation's API keys (see
 * apiKeyCaller), the admin API forwards the session to the identity service and signs the signed-in member
 * for the services (see adminCallers). Each strategy sees only its own endpoint's request context.
 */
export interface SubgraphCaller<C> {
  /** The operation as this subgraph receives it (e.g. raw keys swapped for their ids). */
  operation?(context: C, operation: SubgraphOperation): SubgraphOperation;
  /** The headers of a client's call; may ask another service first (a GraphQLError refuses the call). */
  headers(context: C): Promise<Record<string, string>> | Record<string, string>;
  /** Sees the subgraph's answer headers, e.g. a session cookie to pass on to the page. */
  answered?(context: C, headers: IncomingHttpHeaders): void;
}

export interface SubgraphDataSourceOptions<C> {
  name: string;
  url: string;
  timeoutMs: number;
  metrics: GatewayMetrics;
  caller: SubgraphCaller<C>;
}

/**
 * Calls one subgraph over a pool of keep-alive connections, telling it who is calling (see SubgraphCaller).
 * A subgraph that cannot be reached, fails, or does not answer within the timeout becomes a
 * SERVICE_UNAVAILABLE error on the part of the response it owns; the rest of the response stands.
 */
export class SubgraphDataSource<C extends BaseContext> implements GraphQLDataSource<C> {
  private readonly pool: Pool;
  private readonly path: string;
  private readonly fetchDuration: ReturnType<GatewayMetrics['subgraphFetchDuration']['labels']>;

  constructor(private readonly options: SubgraphDataSourceOptions<C>) {
    const url = new URL(options.url);
    // undici's own timers bound the call (no AbortSignal and timer of our own per call): the answer's
    // headers, then each pause in its body, within the subgraph timeout.
    this.pool = new Pool(url.origin, {
      connections: 128,
      keepAliveTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    this.path = `${url.pathname}${url.search}`;
    this.fetchDuration = options.metrics.subgraphFetchDuration.labels({ subgraph: options.name });
  }

  async process(options: GraphQLDataSourceProcessOptions<C>): Promise<GatewayGraphQLResponse> {
    const { name, metrics } = this.options;
    // Only operations of a client carry its context; the gateway's own calls (health checks) do not.
    const context = 'incomingRequestContext' in options ? options.incomingRequestContext.context : undefined;
    const headers = context ? await this.options.caller.headers(context) : {};
    const stopTimer = this.fetchDuration.startTimer();
    let failure: SubgraphFailure | null = null;
    try {
      let answer: { status: number; body: unknown };
      try {
        answer = await this.post(options, context, headers);
      } catch (error) {
        failure = isTimeout(error) ? 'timeout' : 'unreachable';
        throw subgraphUnavailable(name, failure);
      }
      const result = isPlainObject(answer.body) ? (answer.body as GatewayGraphQLResponse) : null;
      const ok = answer.status >= 200 && answer.status < 300;
      // A non-2xx answer that still explains itself in GraphQL errors passes those errors on.
      if (!ok || !result) failure = 'http';
      if (!result || (!ok && !result.errors?.length)) throw subgraphUnavailable(name, 'http');
      for (const error of result.errors ?? []) {
        const code = error.extensions?.code;
        if (SUBGRAPH_FAULT_CODES.has(code))
          metrics.subgraphErrors.inc({ subgraph: name, kind: String(code).toLowerCase() });
      }
      return result;
    } finally {
      stopTimer();
      if (failure) metrics.subgraphErrors.inc({ subgraph: name, kind: failure });
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async post(
    options: GraphQLDataSourceProcessOptions<C>,
    context: C | undefined,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: unknown }> {
    const { operationName } = options.request;
    const { caller } = this.options;
    const operation = { query: options.request.query ?? '', variables: options.request.variables };
    const { query, variables } = context && caller.operation ? caller.operation(context, operation) : operation;
    const response = await this.pool.request({
      path: this.path,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables, operationName }),
    });
    if (context) caller.answered?.(context, response.headers);
    const text = await response.body.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: treated as a failed answer below
    }
    return { status: response.statusCode, body };
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError;
}
