import { Kind, type ValueNode } from 'graphql';
import { collectFields, fragmentsOf } from '../cost/collectFields';
import type { OperationRequest } from './readOperation';

/** Per root type (Query, Mutation), the fields that take an `apiKey` argument. */
export type KeyedRootFields = Map<'query' | 'mutation' | 'subscription', Set<string>>;

export interface ExtractedKeys {
  /** Distinct keys given to the operation's root fields, in order of appearance. */
  keys: string[];
  /** Some keyed root field has no usable key (argument omitted, null, empty, or an unset variable). */
  missing: boolean;
}

/** Reads the `apiKey` of every root field of the operation, written inline or passed as a variable. */
export function extractApiKeys(
  { document, operation, variables }: OperationRequest,
  keyedFields: KeyedRootFields,
): ExtractedKeys {
  const keyed = keyedFields.get(operation.operation) ?? new Set<string>();
  const fragments = fragmentsOf(document);
  const defaults = new Map(
    (operation.variableDefinitions ?? []).map((definition) => [
      definition.variable.name.value,
      definition.defaultValue,
    ]),
  );
  const keys = new Set<string>();
  let missing = false;

  const valueOf = (node: ValueNode): unknown => {
    if (node.kind === Kind.STRING) return node.value;
    if (node.kind !== Kind.VARIABLE) return null;
    const name = node.name.value;
    if (name in variables) return variables[name];
    const fallback = defaults.get(name);
    return fallback ? valueOf(fallback) : undefined;
  };

  // Fragments expanded once each, as execution does: a chain of spreads cannot make this walk long.
  for (const { field } of collectFields(operation.selectionSet, (name) => fragments.get(name))) {
    if (!keyed.has(field.name.value)) continue;
    const argument = field.arguments?.find((arg) => arg.name.value === 'apiKey');
    const value = argument ? valueOf(argument.value) : undefined;
    if (typeof value === 'string' && value.trim() !== '') keys.add(value);
    else missing = true;
  }
  return { keys: [...keys], missing };
}
