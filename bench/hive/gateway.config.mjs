// Hive Gateway as a benchmark peer: the same checked-in supergraph over the same subgraphs. Entity
// fetches need the caller's key in x-fi-api-keys (our gateway sets it after verifying the key); Hive
// has no such step, so the benchmark client sends the header and Hive passes it on.
export const gatewayConfig = {
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({ 'x-fi-api-keys': request.headers.get('x-fi-api-keys') ?? undefined }),
  },
  logging: 'error',
  graphiql: false,
  landingPage: false,
};
