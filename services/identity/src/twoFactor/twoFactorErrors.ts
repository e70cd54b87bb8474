import { appError, badRequest, ErrorCode } from '@fi/shared';

/** Why a sign-in stopped before its session: the page shows the matching step. */
export type SecondStep = 'TWO_FACTOR_REQUIRED' | 'TWO_FACTOR_ENROLLMENT_REQUIRED';

/**
 * The password (or single sign-on) was right and a second step is due: no session yet, only the
 * challenge, which the page sends back with the code (verifyTwoFactor) or to set two-factor up.
 */
export function secondStepDue(reason: SecondStep, challenge: string, expiresAt: Date) {
  return appError(
    ErrorCode.UNAUTHENTICATED,
    reason === 'TWO_FACTOR_REQUIRED'
      ? 'Enter the code from your authenticator app'
      : 'Your organization requires two-factor sign-in: set it up to continue',
    { reason, challenge, challengeExpiresAt: expiresAt.toISOString() },
  );
}

export const challengeExpired = () =>
  appError(ErrorCode.UNAUTHENTICATED, 'This sign-in has expired or was used; sign in again', {
    reason: 'TWO_FACTOR_CHALLENGE_EXPIRED',
  });

export const wrongCode = () =>
  appError(
    ErrorCode.UNAUTHENTICATED,
    'That code is not right; enter the current code from your app, or a recovery code',
    {
      reason: 'TWO_FACTOR_CODE_REJECTED',
    },
  );

export const notConfigured = () =>
  appError(ErrorCode.SERVICE_UNAVAILABLE, 'Two-factor sign-in is not configured (TWO_FACTOR_SECRET_KEY)');

export const alreadyOn = () => badRequest('Two-factor sign-in is already on; turn it off first to set it up again');
