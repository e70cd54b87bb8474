import type { Logger, RequestOutcome } from '@fi/shared';
import type { Actor } from './domain/actor';
import { signInRequired } from './domain/identityErrors';
import type { ActiveSession } from './domain/sessionService';

export interface IdentityContext {
  requestId: string;
  logger: Logger;
  outcome: RequestOutcome;
  /** The client's address, as the gateway saw it. */
  address: string;
  /** The session cookie's token as sent, valid or not (a new sign-in ends the session it names). */
  sessionToken: string | undefined;
  session: ActiveSession | null;
  /** The single sign-on binding cookie as sent (the browser that started a sign-in finishes it). */
  ssoBinding: string | undefined;
  /** Set-Cookie of this response (a new session, or the cookie cleared). */
  setCookie: string | undefined;
}

/** The signed-in member as the actor of a change; UNAUTHENTICATED "Sign in first" without a session. */
export function memberActor(ctx: IdentityContext): Actor & { kind: 'member' } {
  if (!ctx.session) throw signInRequired();
  return { kind: 'member', member: ctx.session.member, address: ctx.address };
}
