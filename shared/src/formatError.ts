import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode, INVALID_API_KEY_MESSAGE, isAppErrorCode } from './errors';
import { isDependencyUnavailable, SERVICE_UNAVAILABLE_MESSAGE } from './unavailable';

/** Apollo's own codes for a request the client got wrong; clients only ever see BAD_REQUEST for these. */
const CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'PERSISTED_QUERY_NOT_FOUND',
  'BAD_REQUEST',
]);

/**
 * An omitted `apiKey: String!` fails GraphQL validation before any resolver runs; the spec still
 * promises UNAUTHENTICATED for a missing key. The gateway catches every missing-key form (omitted,
 * null, empty, unset variable) before validation; this covers a subgraph called directly.
 */
const MISSING_API_KEY = /argument "apiKey" of type "String!" is required/;

export interface FormatErrorOptions {
  /** Show stack traces and internal messages; never on in production. */
  debug: boolean;
  /** Called with every error that is turned into INTERNAL_SERVER_ERROR, so its detail reaches the log. */
  onInternalError?: (error: unknown) => void;
  /** Called when a dependency (the database) is unreachable; the client gets SERVICE_UNAVAILABLE. */
  onUnavailable?: (error: unknown) => void;
}

export function createFormatError(options: FormatErrorOptions) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
    const { stacktrace, ...extensions } = formatted.extensions ?? {};
    const debugExtras = options.debug && stacktrace ? { stacktrace } : {};

    if (MISSING_API_KEY.test(formatted.message)) {
      return { ...base, message: INVALID_API_KEY_MESSAGE, extensions: { code: ErrorCode.UNAUTHENTICATED } };
    }
    if (isDependencyUnavailable(error)) {
      options.onUnavailable?.(error);
      return { ...base, message: SERVICE_UNAVAILABLE_MESSAGE, extensions: { ...debugExtras, code: ErrorCode.SERVICE_UNAVAILABLE } };
    }
    if (isAppErrorCode(code) && code !== ErrorCode.INTERNAL_SERVER_ERROR) {
      return { ...base, extensions: { ...extensions, ...debugExtras, code } };
    }
    if (typeof code === 'string' && CLIENT_ERROR_CODES.has(code)) {
      return { ...base, extensions: { ...debugExtras, code: ErrorCode.BAD_REQUEST } };
    }
    options.onInternalError?.(error);
    if (options.debug) {
      return { ...base, extensions: { ...extensions, ...debugExtras, code: ErrorCode.INTERNAL_SERVER_ERROR } };
    }
    return {
      message: 'Internal server error',
      path: formatted.path,
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  };
}
