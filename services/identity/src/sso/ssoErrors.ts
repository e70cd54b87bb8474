import type { GraphQLError } from 'graphql';
import { appError, ErrorCode, forbidden } from '@fi/shared';

/**
 * Why a single sign-on was refused: a stable `extensions.reason` beside the message, and the reason the
 * audit log records (`sso.sign_in_refused`, target `<email>: <reason>`).
 */
export type SsoRefusalReason =
  | 'DOMAIN_NOT_VERIFIED'
  | 'NO_CONNECTION'
  | 'UNKNOWN_ATTEMPT'
  | 'EXPIRED_ATTEMPT'
  | 'REPLAYED'
  | 'OTHER_BROWSER'
  | 'PROVIDER_ERROR'
  | 'TOKEN_REJECTED'
  | 'NO_EMAIL'
  | 'EMAIL_NOT_VERIFIED'
  | 'FOREIGN_DOMAIN'
  | 'OTHER_ORGANIZATION';

export const ssoRefusal = (reason: SsoRefusalReason, message: string): GraphQLError =>
  appError(ErrorCode.UNAUTHENTICATED, message, { reason });

export const requireOwner = (role: string): void => {
  if (role !== 'owner') throw forbidden('Only owners can change or read single sign-on');
};

export const ssoNotConfigured = () =>
  appError(ErrorCode.SERVICE_UNAVAILABLE, 'Single sign-on is not configured on this server (SSO_SECRET_KEY)');

export const passwordRefused = (domain: string) =>
  forbidden(`People of ${domain} sign in with single sign-on: use "Sign in with SSO"`);
