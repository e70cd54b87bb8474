import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../context';
import { rateLimitExtension, rateLimitHeaders } from '../rateLimit/decision';
import { costExtension } from '../rateLimit/pointsBudget';

/**
 * Reports the key's budgets on every response that went through GraphQL execution: the RateLimit
 * headers, `extensions.rateLimit` and `extensions.cost` (the HTTP status of a failed one is
 * useFailureStatus's).
 */
export function useResponseReport(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue: { rateLimit, cost } }) {
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;

          if (rateLimit) {
            for (const [name, value] of Object.entries(rateLimitHeaders(rateLimit)))
              response.http.headers.set(name, value);
            result.extensions = { ...result.extensions, rateLimit: rateLimitExtension(rateLimit) };
          }
          if (cost) result.extensions = { ...result.extensions, cost: costExtension(cost.requested, cost.decision) };
        },
      };
    },
  };
}
