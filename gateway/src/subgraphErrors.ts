import { GraphQLError } from 'graphql';
import { ErrorCode } from '@fi/shared';

/** What a client is told to wait when a service is unavailable. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export type SubgraphFailure = 'unreachable' | 'timeout' | 'http';

/** The error a client sees for the part of its request that a failing subgraph would have answered. */
export function subgraphUnavailable(subgraph: string, failure: SubgraphFailure): GraphQLError {
  const why = failure === 'timeout' ? 'did not answer in time' : 'is unavailable';
  return new GraphQLError(`The ${subgraph} service ${why}; retry shortly`, {
    extensions: { code: ErrorCode.SERVICE_UNAVAILABLE, service: subgraph, retryAfter: SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS },
  });
}

/** Codes in a subgraph's answer that mean the subgraph itself failed, not the client's request. */
export const SUBGRAPH_FAULT_CODES: ReadonlySet<unknown> = new Set([ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.SERVICE_UNAVAILABLE]);
