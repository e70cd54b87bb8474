import { appError, ErrorCode } from '@fi/shared';

/** The identity service's refusals, each with a stable code and message (the admin API's own: see shared memberAccess). */
export { csrfRequired, signInRequired } from '@fi/shared';
export const INVALID_CREDENTIALS = 'Invalid email or password';

export const invalidCredentials = () => appError(ErrorCode.UNAUTHENTICATED, INVALID_CREDENTIALS);

export function tooManySignIns(retryAfter: number) {
  return appError(ErrorCode.RATE_LIMITED, `Too many failed sign-ins; retry in ${retryAfter} s`, { retryAfter });
}

/** One address has as many password checks running as it may: refused before hashing, retry at once. */
export function tooManySignInsAtOnce() {
  return appError(ErrorCode.RATE_LIMITED, 'Too many sign-ins at once from this address; retry in 1 s', {
    retryAfter: 1,
  });
}
