import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { badRequest } from './errors';
import { isPlainObject } from './scalars';

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** Why one representation is malformed, or null. Every key and @requires field of the API is a scalar. */
function representationProblem(representation: unknown, index: number): string | null {
  const at = `representations[${index}]`;
  if (!isPlainObject(representation)) return `${at} must be an object`;
  if (typeof representation.__typename !== 'string') return `${at}.__typename must be a string`;
  for (const [field, value] of Object.entries(representation)) {
    if (!isScalar(value)) return `${at}.${field} must be a string, number, boolean or null`;
  }
  return null;
}

/**
 * Checks the representations of `_entities` before any reference resolver sees them, so a field sent as
 * an object or a list is BAD_REQUEST naming it, not an internal error deep in a resolver.
 */
export function checkRepresentations(schema: GraphQLSchema): GraphQLSchema {
  const entities = schema.getQueryType()?.getFields()._entities;
  if (!entities) return schema;
  const resolve = entities.resolve ?? defaultFieldResolver;
  entities.resolve = (source, args: { representations?: unknown }, context, info) => {
    const representations = Array.isArray(args.representations) ? args.representations : [];
    representations.forEach((representation, index) => {
      const problem = representationProblem(representation, index);
      if (problem) throw badRequest(problem, { argument: 'representations' });
    });
    return resolve(source, args, context, info);
  };
  return schema;
}
