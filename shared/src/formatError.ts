import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode, INVALID_API_KEY_MESSAGE, isAppErrorCode } from './errors';
import { isDependencyUnavailable, isQueryTimeout, SERVICE_UNAVAILABLE_MESSAGE } from './unavailable';

/** Apollo's own codes for a request the client got wrong; clients only ever see BAD_REQUEST for these. */
const CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'BAD_REQUEST',
]);

/**
 * Client errors whose code is part of a protocol a client library acts on: automatic persisted queries
 * are off (docs/api.md), and Apollo Client's persisted-query link falls back to sending the whole
 * document when it reads this code.
 */
const PROTOCOL_CODES = new Set(['PERSISTED_QUERY_NOT_SUPPORTED']);

/**
 * An omitted `apiKey: String!` fails GraphQL validation before any resolver runs; the spec still
 * promises UNAUTHENTICATED for a missing key. The gateway catches every missing-key form (omitted,
 * null, empty, unset variable) before validation; this covers a subgraph called directly.
 */
const MISSING_API_KEY = /argument "apiKey" of type "String!" is required/;

/** graphql-js appends hints such as ` Did you mean "total"?`, which map the schema for a stranger. */
const SUGGESTION = /\s*Did you mean [^?]*\?$/;

export interface FormatErrorOptions {
  /** Show stack traces and internal messages; never on in production. */
  debug: boolean;
  /** Remove "Did you mean ...?" hints from validation messages (kept in development only). */
  hideSuggestions?: boolean;
  /** The database operations' time limit (MONGODB_MAX_TIME_MS), named in QUERY_TIMEOUT messages. */
  maxTimeMs?: number;
}

/** What a client is told when the database stopped its request's work at the time limit. */
export function queryTimeoutMessage(maxTimeMs: number | undefined): string {
  const limit = maxTimeMs === undefined ? 'its time limit' : `${maxTimeMs} ms`;
  return `The query took longer than ${limit} and was stopped; narrow it (a shorter search, more filters, a smaller page) or retry later`;
}

/** How the client is answered for an error: each kind has its own code and message rules. */
export type ErrorKind = 'missing-key' | 'unavailable' | 'timeout' | 'app' | 'client' | 'internal';

export function errorKind(message: string, code: unknown, error: unknown): ErrorKind {
  if (MISSING_API_KEY.test(message)) return 'missing-key';
  if (isDependencyUnavailable(error)) return 'unavailable';
  if (isQueryTimeout(error)) return 'timeout';
  if (isAppErrorCode(code) && code !== ErrorCode.INTERNAL_SERVER_ERROR) return 'app';
  if (typeof code === 'string' && (CLIENT_ERROR_CODES.has(code) || PROTOCOL_CODES.has(code))) return 'client';
  return 'internal';
}

/**
 * What the client sees of an error: one of the API's codes, and for internal errors a generic message
 * with no detail (the request's log line has it, see useErrorReporting).
 */
export function createFormatError(options: FormatErrorOptions) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    const message = options.hideSuggestions ? formatted.message.replace(SUGGESTION, '') : formatted.message;
    const base = { message, locations: formatted.locations, path: formatted.path };
    // The gateway's `serviceName` names internal services; our own SERVICE_UNAVAILABLE says `service`.
    const { stacktrace, serviceName: _internal, ...extensions } = formatted.extensions ?? {};
    const debugExtras = options.debug && stacktrace ? { stacktrace } : {};

    switch (errorKind(formatted.message, code, error)) {
      case 'missing-key':
        return { ...base, message: INVALID_API_KEY_MESSAGE, extensions: { code: ErrorCode.UNAUTHENTICATED } };
      case 'unavailable':
        return {
          ...base,
          message: SERVICE_UNAVAILABLE_MESSAGE,
          extensions: { ...debugExtras, code: ErrorCode.SERVICE_UNAVAILABLE },
        };
      case 'timeout':
        return {
          ...base,
          message: queryTimeoutMessage(options.maxTimeMs),
          extensions: {
            ...debugExtras,
            code: ErrorCode.QUERY_TIMEOUT,
            ...(options.maxTimeMs === undefined ? {} : { maxTimeMs: options.maxTimeMs }),
          },
        };
      case 'app':
        return { ...base, extensions: { ...extensions, ...debugExtras, code: code as string } };
      case 'client': {
        const clientCode = PROTOCOL_CODES.has(code as string) ? (code as string) : ErrorCode.BAD_REQUEST;
        return { ...base, extensions: { ...debugExtras, code: clientCode } };
      }
      case 'internal':
        if (options.debug)
          return { ...base, extensions: { ...extensions, ...debugExtras, code: ErrorCode.INTERNAL_SERVER_ERROR } };
        return {
          message: 'Internal server error',
          path: formatted.path,
          extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
        };
    }
  };
}
