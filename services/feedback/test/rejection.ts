import type { GraphQLError } from 'graphql';

/** The error a domain rule throws; fails the test when the rule accepts instead. */
export function rejection(run: () => unknown): GraphQLError {
  try {
    run();
  } catch (error) {
    return error as GraphQLError;
  }
  throw new Error('expected a rejection');
}
