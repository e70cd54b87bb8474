import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { errors as undiciErrors, Pool } from 'undici';
import { IDEMPOTENCY_KEY_HEADER, IDENTITY_HEADER, isPlainObject, REQUEST_ID_HEADER, signIdentity, type SigningKeyring } from '@fi/shared';
import { withKeyReferences } from './auth/keyReferences';
import type { GatewayContext } from './context';
import type { GatewayMetrics } from './metrics/gatewayMetrics';
import { SUBGRAPH_FAULT_CODES, subgraphUnavailable, type SubgraphFailure } from './subgraphErrors';

type GatewayGraphQLResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

export interface SubgraphDataSourceOptions {
  name: string;
  url: string;
  timeoutMs: number;
  metrics: GatewayMetrics;
  signingKeys: SigningKeyring;
  /** Lifetime of each signed identity: long enough for one subgraph call, short enough to be useless if copied. */
  identityTtlMs: number;
}

/**
 * Calls one subgraph over a pool of keep-alive connections. It sends who is calling as a freshly signed
 * identity (entity fetches carry no `apiKey` argument), with each raw key in the operation replaced by
 * its id; the request id, so one request can be followed across services; and the client's
 * Idempotency-Key, so a retried addFeedbackItem creates nothing new.
 * A subgraph that cannot be reached, fails, or does not answer within the timeout becomes a
 * SERVICE_UNAVAILABLE error on the part of the response it owns; the rest of the response stands.
 */
export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly pool: Pool;
  private readonly path: string;
  private readonly fetchDuration: ReturnType<GatewayMetrics['subgraphFetchDuration']['labels']>;

  constructor(private readonly options: SubgraphDataSourceOptions) {
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

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { name, metrics } = this.options;
    const stopTimer = this.fetchDuration.startTimer();
    let failure: SubgraphFailure | null = null;
    try {
      let answer: { status: number; body: unknown };
      try {
        answer = await this.post(options);
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
        if (SUBGRAPH_FAULT_CODES.has(code)) metrics.subgraphErrors.inc({ subgraph: name, kind: String(code).toLowerCase() });
      }
      return result;
    } finally {
      stopTimer();
      if (failure) metrics.subgraphErrors.inc({ subgraph: name, kind: failure });
    }
  }

  private async post(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<{ status: number; body: unknown }> {
    const { operationName } = options.request;
    const context = 'incomingRequestContext' in options ? options.incomingRequestContext.context : undefined;
    const operation = { query: options.request.query ?? '', variables: options.request.variables };
    const { query, variables } = context ? withKeyReferences(operation, context.keyRefs) : operation;
    const response = await this.pool.request({
      path: this.path,
      method: 'POST',
      headers: this.headersFor(options),
      body: JSON.stringify({ query, variables, operationName }),
    });
    const text = await response.body.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: treated as a failed answer below
    }
    return { status: response.statusCode, body };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private headersFor(options: GraphQLDataSourceProcessOptions<GatewayContext>): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    // Only operations of a client carry its context; the gateway's own calls (health checks) do not.
    if (!('incomingRequestContext' in options)) return headers;
    const context = options.incomingRequestContext.context;
    headers[REQUEST_ID_HEADER] = context.requestId;
    headers[IDENTITY_HEADER] = signIdentity(this.options.signingKeys, context.principals, this.options.identityTtlMs);
    if (context.idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = context.idempotencyKey;
    return headers;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError;
}
