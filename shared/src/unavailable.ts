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
  return wrapsError(error, ({ name, code }) => name === 'MongoOperationTimeoutError' || (name === 'MongoServerError' && code === 50));
}
