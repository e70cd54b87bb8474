import { Kind, parse, print, visit } from 'graphql';

export interface SubgraphOperation {
  query: string;
  variables: Record<string, unknown> | undefined;
}

/**
 * The operation a subgraph receives, with every verified API key replaced by its id: subgraphs learn
 * who is calling from the signed identity, so the secret never travels past the gateway. Keys passed
 * as variables (the usual case) cost a look at each variable (any variable holding exactly a verified
 * key is replaced: a secret has no business reaching a subgraph under another name either); a key
 * written inline in the document costs a parse of the subgraph's query, and only `apiKey` arguments
 * are rewritten.
 */
export function withKeyReferences(operation: SubgraphOperation, keyRefs: Map<string, string>): SubgraphOperation {
  if (keyRefs.size === 0) return operation;
  const variables = operation.variables
    ? Object.fromEntries(
        Object.entries(operation.variables).map(([name, value]) => [
          name,
          typeof value === 'string' ? (keyRefs.get(value) ?? value) : value,
        ]),
      )
    : undefined;
  const inline = [...keyRefs.keys()].some((key) => operation.query.includes(key));
  if (!inline) return { query: operation.query, variables };
  const document = visit(parse(operation.query), {
    Argument(node) {
      if (node.name.value !== 'apiKey' || node.value.kind !== Kind.STRING) return undefined;
      const ref = keyRefs.get(node.value.value);
      return ref === undefined ? undefined : { ...node, value: { ...node.value, value: ref } };
    },
  });
  return { query: print(document), variables };
}
