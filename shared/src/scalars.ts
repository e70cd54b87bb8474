import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { badRequest } from './errors';

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO 8601 date-time in UTC, e.g. 2026-01-31T12:00:00.000Z',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(value as string | number);
    if (Number.isNaN(date.getTime())) throw new TypeError('DateTime cannot represent an invalid date');
    return date.toISOString();
  },
  parseValue(value) {
    return parseDate(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw badRequest('DateTime must be an ISO 8601 string');
    return parseDate(ast.value);
  },
});

function parseDate(value: unknown): Date {
  const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw badRequest('DateTime must be an ISO 8601 string');
  return date;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Free-form JSON (feedback `metadata`). The scalar accepts any JSON and the domain checks its shape:
 * a scalar that throws makes the subgraph answer HTTP 400, which the gateway reports as a failed fetch
 * instead of the client's BAD_REQUEST.
 */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'A free-form JSON object',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalToJson(ast, variables ?? {}),
});

function literalToJson(ast: ValueNode, variables: Record<string, unknown>): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((item) => literalToJson(item, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((field) => [field.name.value, literalToJson(field.value, variables)]));
    case Kind.VARIABLE:
      return variables[ast.name.value];
    default:
      return null;
  }
}
