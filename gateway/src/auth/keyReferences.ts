export interface SubgraphOperation {
  query: string;
  variables: Record<string, unknown> | undefined;
}

/**
 * The operation a subgraph receives, with every verified API key replaced by its id: subgraphs learn
 * who is calling from the signed identity, so the secret never travels past the gateway. Any variable or
 * string literal holding exactly a verified key is replaced (a secret has no business reaching a subgraph
 * under another name either). A literal is found in the subgraph's query text as printed (GraphQL escapes
 * a string as JSON does; a key is `fik_` and base64url characters, which need none): no parse.
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
  let query = operation.query;
  for (const [key, ref] of keyRefs) {
    const literal = JSON.stringify(key);
    if (query.includes(literal)) query = query.split(literal).join(JSON.stringify(ref));
  }
  return { query, variables };
}
