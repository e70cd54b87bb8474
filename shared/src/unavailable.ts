import type { GraphQLError } from 'graphql';
import { appError, ErrorCode } from './errors';
import { HttpError } from './http/body';

/** Driver errors that mean "the database cannot be reached right now", not "the request is wrong". */
const UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
  // No pooled connection came free within MONGODB_TIMEOUT_MS (the driver's own timeout wraps it): the
  // database cannot take the work now, whatever the request asks. Checked before isQueryTimeout.
  'MongoWaitQueueTimeoutError',
]);

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable; retry shortly';

/**
 * "A dependency is unavailable" has one home: its error, its HTTP status and its Retry-After. What a
 * client is told to wait, in seconds, whichever dependency it was (a database, a subgraph, the identity
 * service, a contended item).
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The HTTP answer of a request that failed only because a dependency was unavailable. */
export const UNAVAILABLE_HTTP = {
  status: 503,
  headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
} as const;

/** SERVICE_UNAVAILABLE with the wait: the client did nothing wrong and may retry as it is. */
export function unavailableError(
  message = SERVICE_UNAVAILABLE_MESSAGE,
  extensions: Record<string, unknown> = {},
): GraphQLError {
  return appError(ErrorCode.SERVICE_UNAVAILABLE, message, {
    ...extensions,
    retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
  });
}

/** The same for a plain HTTP route (an export download): 503 with Retry-After. */
export function unavailableHttpError(message: string, extensions: Record<string, unknown> = {}): HttpError {
  return new HttpError(
    UNAVAILABLE_HTTP.status,
    message,
    UNAVAILABLE_HTTP.headers,
    { ...extensions, retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS },
    ErrorCode.SERVICE_UNAVAILABLE,
  );
}

/** True when a response failed only for unavailable dependencies (each error SERVICE_UNAVAILABLE). */
export function onlyUnavailable(errors: ReadonlyArray<{ extensions?: Record<string, unknown> }> | undefined): boolean {
  return !!errors?.length && errors.every((error) => error.extensions?.code === ErrorCode.SERVICE_UNAVAILABLE);
}

interface ErrorLike {
  name?: string;
  code?: unknown;
  originalError?: unknown;
  cause?: unknown;
}

/** True when `error`, or an error it wraps (GraphQL's originalError, a cause), matches. */
function wrapsError(error: unknown, matches: (error: ErrorLike) => boolean): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current !== 'object') return false;
    const candidate = current as ErrorLike;
    if (matches(candidate)) return true;
    current = candidate.originalError ?? candidate.cause;
  }
  return false;
}

/** True when `error`, or an error it wraps, says a dependency is unreachable. */
export function isDependencyUnavailable(error: unknown): boolean {
  return wrapsError(error, ({ name }) => !!name && UNREACHABLE.has(name));
}

/**
 * True when the database stopped an operation at its time limit: the server's `MaxTimeMSExpired` (50),
 * or the driver's own timeout when the server did not stop in time.
 */
export function isQueryTimeout(error: unknown): boolean {
  return wrapsError(
    error,
    ({ name, code }) => name === 'MongoOperationTimeoutError' || (name === 'MongoServerError' && code === 50),
  );
}
