import type { GraphQLSchema } from 'graphql';
import type { KeyedRootFields } from './extractApiKeys';

/** Which root fields of the public schema take an `apiKey`; recomputed whenever the schema loads. */
export function keyedRootFields(schema: GraphQLSchema): KeyedRootFields {
  const result: KeyedRootFields = new Map();
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  for (const [operation, type] of roots) {
    if (!type) continue;
    const fields = Object.values(type.getFields()).filter((field) => field.args.some((arg) => arg.name === 'apiKey'));
    result.set(operation, new Set(fields.map((field) => field.name)));
  }
  return result;
}
