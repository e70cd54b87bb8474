import { appError, ErrorCode, forbidden } from '@fi/shared';

/** The identity service's refusals, each with a stable code and message. */
export const SIGN_IN_REQUIRED = 'Sign in first';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const CSRF_REQUIRED = 'Missing or invalid CSRF token: send the x-csrf-token header given at sign-in';

export const signInRequired = () => appError(ErrorCode.UNAUTHENTICATED, SIGN_IN_REQUIRED);
export const invalidCredentials = () => appError(ErrorCode.UNAUTHENTICATED, INVALID_CREDENTIALS);
export const csrfRequired = () => forbidden(CSRF_REQUIRED);

export function tooManySignIns(retryAfter: number) {
  return appError(ErrorCode.RATE_LIMITED, `Too many failed sign-ins; retry in ${retryAfter} s`, { retryAfter });
}
