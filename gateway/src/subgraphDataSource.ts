import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { FORWARDED_KEYS_HEADER, IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from '@fi/shared';
import type { GatewayContext } from './context';

/**
 * Calls one subgraph: forwards the operation's verified keys (entity fetches carry no `apiKey`
 * argument), the request id, so one request can be followed across services, and the client's
 * Idempotency-Key, so a retried addFeedbackItem creates nothing new.
 */
export class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const headers = request.http?.headers;
    if (!headers || !context.requestId) return;
    headers.set(REQUEST_ID_HEADER, context.requestId);
    if (context.apiKeys.length > 0) headers.set(FORWARDED_KEYS_HEADER, context.apiKeys.join(','));
    if (context.idempotencyKey !== undefined) headers.set(IDEMPOTENCY_KEY_HEADER, context.idempotencyKey);
  }
}
