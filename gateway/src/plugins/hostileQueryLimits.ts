import { ApolloArmor } from '@escape.tech/graphql-armor';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxCost: number;
  /** Hides "Did you mean …?" hints, which map the schema for an attacker; kept in development. */
  hideFieldSuggestions: boolean;
}

/**
 * Limits on what one document may ask for, checked during validation at the gateway, before any query
 * plan or subgraph call: depth, aliases, directives, tokens and an estimated cost (graphql-armor).
 * A refused document is a BAD_REQUEST that names the limit.
 */
export function hostileQueryLimits(limits: QueryLimits) {
  const { plugins, validationRules } = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true },
    maxAliases: { n: limits.maxAliases },
    maxDirectives: { n: limits.maxDirectives },
    maxTokens: { n: limits.maxTokens },
    costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true },
    blockFieldSuggestion: { enabled: limits.hideFieldSuggestions },
  }).protect();
  return { plugins, validationRules };
}
