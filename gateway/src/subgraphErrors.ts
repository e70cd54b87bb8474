import type { GraphQLError } from 'graphql';
import { ErrorCode, unavailableError } from '@fi/shared';

export type SubgraphFailure = 'unreachable' | 'timeout' | 'http';

/** The error a client sees for the part of its request that a failing subgraph would have answered. */
export function subgraphUnavailable(subgraph: string, failure: SubgraphFailure): GraphQLError {
  const why = failure === 'timeout' ? 'did not answer in time' : 'is unavailable';
  return unavailableError(`The ${subgraph} service ${why}; retry shortly`, { service: subgraph });
}

/** Codes in a subgraph's answer that mean the subgraph itself failed, not the client's request. */
export const SUBGRAPH_FAULT_CODES: ReadonlySet<unknown> = new Set([
  ErrorCode.INTERNAL_SERVER_ERROR,
  ErrorCode.SERVICE_UNAVAILABLE,
]);
