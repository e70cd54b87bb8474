import { ApolloArmor } from '@escape.tech/graphql-armor';
import { documentSizeRules } from './documentSize';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxCost: number;
}

/**
 * Limits on what one document may ask for, checked at the gateway before any query plan or subgraph
 * call: depth and an estimated cost (documentSizeRules), aliases and directives (graphql-armor validation rules), and tokens,
 * which the parser itself counts (armor's token plugin throws outside validation, which Apollo reports
 * as a server error). A refused document is a BAD_REQUEST that names the limit.
 */
export function hostileQueryLimits(limits: QueryLimits) {
  const { plugins, validationRules } = new ApolloArmor({
    // Depth and cost are documentSizeRules' (fragments expanded once).
    maxDepth: { enabled: false },
    maxAliases: { n: limits.maxAliases },
    maxDirectives: { n: limits.maxDirectives },
    maxTokens: { enabled: false },
    costLimit: { enabled: false },
    // Suggestions are removed by the shared formatError, for the gateway and subgraphs alike.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return {
    plugins,
    validationRules: [...validationRules, ...documentSizeRules(limits)],
    parseOptions: { maxTokens: limits.maxTokens },
  };
}
