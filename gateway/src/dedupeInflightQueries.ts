import type { ApolloGateway } from '@apollo/gateway';

type Executor = NonNullable<Awaited<ReturnType<ApolloGateway['load']>>['executor']>;
type ExecutionContext = Parameters<Executor>[0];
type ContextWithKeys = { apiKeys?: string[] };

/**
 * Concurrent identical queries share one execution: the same document, operation, variables and
 * keys, while the first is still running, get the first one's result instead of another round of
 * subgraph calls (Hive Gateway and Apollo Router do the same). Each request is still authenticated,
 * rate-limited and answered on its own; mutations always run. Subgraph logs then show the request id
 * of the execution that ran.
 */
export function dedupeInflightQueries(gateway: ApolloGateway) {
  return {
    onSchemaLoadOrUpdate: gateway.onSchemaLoadOrUpdate.bind(gateway),
    stop: () => gateway.stop(),
    load: async (options: Parameters<ApolloGateway['load']>[0]) => {
      const loaded = await gateway.load(options);
      return { ...loaded, executor: loaded.executor && sharedExecutor(loaded.executor) };
    },
  };
}

function sharedExecutor(executor: Executor): Executor {
  // Each schema version a request was validated against gets its own number (the schema objects are replaced
  // on a supergraph reload), so no request shares an execution across a swap.
  const schemaIds = new WeakMap<object, number>();
  let nextSchemaId = 0;
  const schemaId = (schema: object) => {
    let id = schemaIds.get(schema);
    if (id === undefined) schemaIds.set(schema, (id = nextSchemaId++));
    return id;
  };
  const inflight = new Map<string, ReturnType<Executor>>();
  return (requestContext) => {
    if (requestContext.operation.operation !== 'query') return executor(requestContext);
    const key = `${schemaId(requestContext.schema)}\u0000${executionKey(requestContext)}`;
    const running = inflight.get(key);
    if (running) return running;
    const execution = executor(requestContext).finally(() => inflight.delete(key));
    inflight.set(key, execution);
    return execution;
  };
}

/** The document by its hash (Apollo computes it per request anyway), not by its whole text. */
function executionKey({ queryHash, operationName, request, context }: ExecutionContext): string {
  const keys = (context as ContextWithKeys).apiKeys ?? [];
  return `${keys.join(',')}\u0000${operationName ?? ''}\u0000${JSON.stringify(request.variables ?? {})}\u0000${queryHash}`;
}
