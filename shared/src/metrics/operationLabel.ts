import { Kind, type OperationDefinitionNode } from 'graphql';

/**
 * A metric label for an operation: its root field names, sorted. Operation names are chosen by
 * clients and unbounded; root fields are bounded by the schema.
 */
export function operationLabel(operation: OperationDefinitionNode | undefined): string {
  if (!operation) return 'invalid';
  const fields = new Set<string>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.add(selection.name.value);
    else fields.add('fragment');
  }
  return [...fields].sort().join(',') || 'empty';
}
