// Hive Gateway as a benchmark peer: the same checked-in supergraph over the same subgraphs. Subgraphs
// serve only requests with a signed identity in x-fi-identity (our gateway signs one after verifying the
// key); Hive has no such step, so the benchmark client sends the header and Hive passes it on.
export const gatewayConfig = {
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({ 'x-fi-identity': request.headers.get('x-fi-identity') ?? undefined }),
  },
  logging: 'error',
  graphiql: false,
  landingPage: false,
};
