import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestOutcome } from '../http/graphqlHttpServer';
import { operationLabel } from './operationLabel';

/**
 * Records how a request that reached GraphQL ended (its root fields and OK or its first error code),
 * for the request's log line and metrics, which the HTTP layer writes once the response is sent.
 */
export function useRequestOutcome<C extends { outcome: RequestOutcome }>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue, operation }) {
          if (operation) contextValue.outcome.operation = operationLabel(operation);
          if (response.body.kind !== 'single') return;
          const firstCode = response.body.singleResult.errors?.[0]?.extensions?.code;
          contextValue.outcome.code = typeof firstCode === 'string' ? firstCode : 'OK';
        },
      };
    },
  };
}
