import { defaultFieldResolver, getNullableType, GraphQLString, isObjectType, type GraphQLSchema } from 'graphql';
import { badRequest } from './errors';
import { IMPORT_MAX_CHARACTERS } from './import/csvImport';
import { codePointLength } from './validation';

/**
 * The longest value, in characters, of each text argument of the API, by argument name. Every `String`
 * argument of every subgraph's root fields is checked against this table before its resolver runs
 * (see `limitTextArguments`), so no request can hand the database an unbounded pattern or value.
 * A new argument adds its entry here (and to the limits table of docs/limits.md); one not listed gets
 * `DEFAULT_TEXT_ARGUMENT_MAX`. Fields of input objects (e.g. `NewFeedbackInput`) are the owning
 * service's domain rules' business.
 */
export const TEXT_ARGUMENT_MAX: Readonly<Record<string, number>> = {
  // A key is 47 characters; a longer value is refused as an invalid key (UNAUTHENTICATED), not here.
  apiKey: Infinity,
  id: 64,
  search: 200,
  source: 100,
  status: 32,
  sentiment: 32,
  // Webhook endpoints (the feedback service checks the same limits in its domain rules, for the CLI).
  url: 2_048,
  endpointId: 64,
  // A directory's CSV import (the admin API): the whole file in one argument.
  csv: IMPORT_MAX_CHARACTERS,
};

export const DEFAULT_TEXT_ARGUMENT_MAX = 1_000;

export const textArgumentMax = (argument: string): number => TEXT_ARGUMENT_MAX[argument] ?? DEFAULT_TEXT_ARGUMENT_MAX;

/** BAD_REQUEST naming the argument and its limit when `value` is longer than `max` characters (code points). */
export function requireMaxLength(argument: string, value: string, max: number): string {
  // The UTF-16 length is never below the code-point count: most values need no count at all.
  if (value.length <= max) return value;
  const length = codePointLength(value);
  if (length > max)
    throw badRequest(`${argument} must be at most ${max} characters (got ${length})`, { argument, max });
  return value;
}

/**
 * Wraps every root field that takes `String` arguments so each value is checked against its maximum
 * length first; applied once to each subgraph's schema, so arguments added later are covered too.
 */
export function limitTextArguments(schema: GraphQLSchema): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type || !isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const textArguments = field.args
        .filter((arg) => getNullableType(arg.type) === GraphQLString)
        .map((arg) => arg.name);
      if (textArguments.length === 0) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args: Record<string, unknown>, context, info) => {
        for (const name of textArguments) {
          const value = args[name];
          if (typeof value === 'string') requireMaxLength(name, value, textArgumentMax(name));
        }
        return resolve(source, args, context, info);
      };
    }
  }
  return schema;
}
