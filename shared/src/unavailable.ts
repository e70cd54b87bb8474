/** Driver errors that mean "the database cannot be reached right now", not "the request is wrong". */
const UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
]);

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable; retry shortly';

/** True when `error`, or an error it wraps, says a dependency is unreachable. */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current !== 'object') return false;
    const { name, originalError, cause } = current as { name?: string; originalError?: unknown; cause?: unknown };
    if (name && UNREACHABLE.has(name)) return true;
    current = originalError ?? cause;
  }
  return false;
}
