import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { isPlainObject } from '@fi/shared';
import type { DocumentCache } from './documentCache';

/** The operation a request will run, as far as the gateway can tell before GraphQL validation. */
export interface OperationRequest {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
}

/**
 * Null when the body has no query, the query does not parse, or the operation to run cannot be
 * determined: GraphQL validation then answers with BAD_REQUEST.
 */
export function readOperation(body: unknown, documents: DocumentCache): OperationRequest | null {
  if (!isPlainObject(body) || typeof body.query !== 'string') return null;
  const document = documents.get(body.query);
  if (!document) return null;
  const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
  const operation = selectOperation(document, operationName);
  if (!operation) return null;
  return { document, operation, variables: isPlainObject(body.variables) ? body.variables : {} };
}

function selectOperation(document: DocumentNode, operationName: string | undefined): OperationDefinitionNode | null {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return operations.find((operation) => operation.name?.value === operationName) ?? null;
  return operations.length === 1 ? operations[0] : null;
}
