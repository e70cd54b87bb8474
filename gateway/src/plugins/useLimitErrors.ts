import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';

/** The document limits, by the words graphql-armor and the parser use for them, and the name we give. */
const LIMITS: Array<{ pattern: RegExp; limit: string; message: (max: string, found?: string) => string }> = [
  {
    pattern: /^Query cost limit of (\d+) exceeded \(estimated cost ([^)]+)\)$/,
    limit: 'cost',
    message: (max, found) => `Query cost limit of ${max} exceeded (estimated cost ${found})`,
  },
  {
    pattern: /^Query depth limit of (\d+) exceeded \(depth (\d+)\)$/,
    limit: 'depth',
    message: (max, found) => `Query depth limit of ${max} exceeded (depth ${found})`,
  },
  {
    pattern: /Aliases limit of (\d+) exceeded(?:, found (\d+))?/i,
    limit: 'aliases',
    message: (max, found) => `Aliases limit of ${max} exceeded${found ? ` (found ${found})` : ''}`,
  },
  {
    pattern: /Directives limit of (\d+) exceeded(?:, found (\d+))?/i,
    limit: 'directives',
    message: (max, found) => `Directives limit of ${max} exceeded${found ? ` (found ${found})` : ''}`,
  },
  {
    pattern: /Document contains more tha[nt] (\d+) tokens/i,
    limit: 'tokens',
    message: (max) => `Token limit of ${max} exceeded: the document has more than ${max} tokens`,
  },
];

function asLimitError(error: GraphQLFormattedError): GraphQLFormattedError | null {
  for (const { pattern, limit, message } of LIMITS) {
    const match = pattern.exec(error.message);
    if (match)
      return {
        ...error,
        message: message(match[1], match[2]),
        extensions: { ...error.extensions, limit, max: Number(match[1]) },
      };
  }
  return null;
}

/**
 * A document over a limit is answered with one error worded as that limit ("Query cost limit of 1000
 * exceeded (estimated cost 1180)", `extensions.limit` and `max`), not as a "Syntax Error:" followed
 * by "Validation aborted." and whatever else validation found: it is not a syntax error, and one
 * refusal is one error.
 */
export function useLimitErrors<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const errors = response.body.singleResult.errors;
          if (!errors) return;
          const limits = errors.map(asLimitError);
          if (limits.every((limit) => limit === null)) return;
          // The refusal is the answer: what else validation found ("Validation aborted.", a rule that
          // ran on the same oversized document) is noise next to it.
          response.body.singleResult.errors = limits.filter((limit) => limit !== null).slice(0, 1);
        },
      };
    },
  };
}
