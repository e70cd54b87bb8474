import { appError, ErrorCode, forbidden } from '../errors';
import type { Authenticator } from './authenticator';
import type { MemberPrincipal, Role } from './signedIdentity';

/**
 * Refusals of the admin API (the web application's path, see docs/identity.md): the identity service, the
 * gateway and every service's admin schema answer them alike.
 */
export const SIGN_IN_REQUIRED = 'Sign in first';
export const CSRF_REQUIRED = 'Missing or invalid CSRF token: send the x-csrf-token header given at sign-in';

export const signInRequired = () => appError(ErrorCode.UNAUTHENTICATED, SIGN_IN_REQUIRED);
export const csrfRequired = () => forbidden(CSRF_REQUIRED);

/** Who may change the records of a directory (contacts, accounts): every role but viewers, who read. */
export const DIRECTORY_WRITERS: readonly Role[] = ['owner', 'admin', 'member'];

/** The signed-in member of an admin request; UNAUTHENTICATED "Sign in first" without one. */
export function requireMember(auth: Authenticator): MemberPrincipal {
  const member = auth.member();
  if (!member) throw signInRequired();
  return member;
}

/** Who may add or remove what carries the organization's data elsewhere (webhook endpoints), as API keys. */
export const INTEGRATION_MANAGERS: readonly Role[] = ['owner', 'admin'];

/** The signed-in member when their role is one of `roles`; FORBIDDEN with `refusal` otherwise. */
export function requireMemberRole(auth: Authenticator, roles: readonly Role[], refusal: string): MemberPrincipal {
  const member = requireMember(auth);
  if (!roles.includes(member.role)) throw forbidden(refusal);
  return member;
}

/** The signed-in member when their role may change `what` (e.g. "contacts"); FORBIDDEN otherwise. */
export function requireDirectoryWriter(auth: Authenticator, what: string): MemberPrincipal {
  return requireMemberRole(auth, DIRECTORY_WRITERS, `Only owners, admins and members can change ${what}`);
}
