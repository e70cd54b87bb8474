import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { Kind, type DocumentNode } from 'graphql';
import { badRequest, withHttpStatus } from '@fi/shared';

/**
 * A document whose operation cannot be chosen (an unknown `operationName`, several operations and none
 * named) or whose operation the schema has no root for (a subscription) is the client's mistake: 400
 * BAD_REQUEST with graphql-js's own words, before the federated executor, which would throw on it (500).
 */
export function useOperationChoice<C extends BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request, schema }) {
          const message = !operation
            ? unchosenOperation(document, request.operationName)
            : schema.getRootType(operation.operation)
              ? null
              : `Schema is not configured to execute ${operation.operation} operation.`;
          if (message) throw withHttpStatus(badRequest(message), 400);
        },
      };
    },
  };
}

function unchosenOperation(document: DocumentNode, operationName: string | undefined): string {
  if (operationName) return `Unknown operation named "${operationName}".`;
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  return operations.length > 1
    ? 'Must provide operation name if query contains multiple operations.'
    : 'Must provide an operation.';
}
