import type { ApolloServerPlugin } from '@apollo/server';
import { ErrorCode } from '@fi/shared';
import type { GatewayContext } from '../context';
import { rateLimitExtension, rateLimitHeaders } from '../rateLimit/decision';
import { costExtension } from '../rateLimit/pointsBudget';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../subgraphErrors';

/**
 * Finishes every response that went through GraphQL execution: the RateLimit headers,
 * `extensions.rateLimit` and `extensions.cost`, and HTTP 503 (429) with Retry-After when the whole request failed only
 * because a service was unavailable (an organization was over its share of a service).
 */
export function useResponseReport(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue: { rateLimit, cost } }) {
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;

          if (rateLimit) {
            for (const [name, value] of Object.entries(rateLimitHeaders(rateLimit))) response.http.headers.set(name, value);
            result.extensions = { ...result.extensions, rateLimit: rateLimitExtension(rateLimit) };
          }
          if (cost) result.extensions = { ...result.extensions, cost: costExtension(cost.requested, cost.decision) };
          const unavailableOnly =
            !!result.errors?.length && result.errors.every((error) => error.extensions?.code === ErrorCode.SERVICE_UNAVAILABLE);
          const nothingAnswered = !result.data || Object.values(result.data).every((value) => value === null);
          if (unavailableOnly && nothingAnswered) {
            response.http.status = 503;
            response.http.headers.set('retry-after', String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS));
          }
          // Refused by a subgraph's bulkhead (its organization is at its share): 429, as the gateway's own limits.
          const limitedOnly = !!result.errors?.length && result.errors.every((error) => error.extensions?.code === ErrorCode.RATE_LIMITED);
          if (limitedOnly && nothingAnswered) {
            response.http.status = 429;
            const retryAfter = Math.max(1, ...result.errors!.map((error) => Number(error.extensions?.retryAfter) || 1));
            response.http.headers.set('retry-after', String(retryAfter));
          }
        },
      };
    },
  };
}
