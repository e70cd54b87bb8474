import { createHash, createHmac, randomBytes } from 'node:crypto';
import { badRequest, type MemberPrincipal } from '@fi/shared';
import type { Member } from '../data/memberRepository';
import type { Organization } from '../data/organizationRepository';
import type { IdentityRepositories } from '../data/repositories';
import { invalidCredentials } from './identityErrors';
import { decoyPasswordHash, verifyPassword } from './passwords';
import { NO_SECOND_FACTOR, type SecondFactorGate } from './secondFactor';
import type { SignInThrottle } from './signInThrottle';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** Refuses (throws) a password sign-in its rules forbid, e.g. single sign-on required for the member's domain. */
export type PasswordSignInRule = (member: Member, address: string) => Promise<void>;

/** A session in use: the member it belongs to, and the CSRF token every state-changing request must send. */
export interface ActiveSession {
  id: string;
  member: Member;
  organization: Organization;
  csrfToken: string;
  expiresAt: Date;
}

/**
 * The signed-in member as the gateway signs them for the services' admin schemas: the member's id, role
 * and organization (with its plan). A viewer is read-only.
 */
export function memberPrincipal(session: ActiveSession): MemberPrincipal {
  const { member, organization } = session;
  return {
    ref: member.id,
    kind: 'member',
    orgId: organization.id,
    role: member.role,
    tier: organization.tier,
    readOnly: member.role === 'viewer',
    rateLimitPerMinute: null,
  };
}

/** Touching lastSeenAt at most this often keeps a busy session from costing a write per request. */
const TOUCH_RESOLUTION_MS = 60_000;
const MAX_EMAIL_LENGTH = 320;

export const sessionId = (token: string) => createHash('sha256').update(token).digest('hex');
/** Derived from the session's secret: nothing more to store, and useless without the cookie beside it. */
const csrfTokenOf = (token: string) => createHmac('sha256', token).update('csrf').digest('base64url');

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (normalized.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized))
    throw badRequest('Enter a valid email address');
  return normalized;
}

/** Sign-in, sign-out and the checks of a session on every request. */
export class SessionService {
  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly throttle: SignInThrottle,
    private readonly policy: SessionPolicy,
    private readonly passwordRule: PasswordSignInRule = async () => undefined,
    private readonly secondFactor: SecondFactorGate = NO_SECOND_FACTOR,
  ) {}

  /**
   * One message and the same scrypt work whether the email is unknown or the password wrong, so neither
   * the answer nor its timing tells which emails have accounts. A new session (a new token) every time:
   * a token planted before sign-in is never promoted; the previous session, if any, ends.
   */
  async signIn(
    email: string,
    password: string,
    address: string,
    previousToken: string | undefined,
  ): Promise<{ token: string; session: ActiveSession }> {
    const normalized = normalizeEmail(email);
    // Read inside the attempt: a refused attempt costs no read of the account.
    const { credentials, matches } = await this.throttle.attempt(normalized, address, async () => {
      const found =
        normalized.length <= MAX_EMAIL_LENGTH ? await this.repositories.members.findCredentials(normalized) : null;
      return {
        credentials: found,
        matches: await verifyPassword(password, found?.passwordHash ?? (await decoyPasswordHash())),
      };
    });
    const organization =
      credentials && matches ? await this.repositories.organizations.findById(credentials.member.orgId) : null;
    if (!credentials || !matches || !organization) {
      await this.repositories.audit.record({
        orgId: credentials?.member.orgId ?? null,
        action: 'session.sign_in_failed',
        actor: credentials ? credentials.member.email : 'anonymous',
        target: credentials ? credentials.member.email : null,
        address,
      });
      throw invalidCredentials();
    }
    await this.passwordRule(credentials.member, address);
    if (previousToken) await this.repositories.sessions.revoke(sessionId(previousToken));
    const result = await this.start(credentials.member, organization);
    await this.repositories.audit.record({
      orgId: organization.id,
      action: 'session.signed_in',
      actor: credentials.member.email,
      target: null,
      address,
    });
    return result;
  }

  /**
   * Opens a session for a member who just proved who they are (signed in, or accepted an invitation), once
   * the second factor is passed: unless `secondFactor` says it just was, the gate may stop here with the
   * second step's challenge (two-factor sign-in on for the member, or required by their organization).
   */
  async start(
    member: Member,
    organization: Organization,
    secondFactor: 'check' | 'passed' = 'check',
  ): Promise<{ token: string; session: ActiveSession }> {
    if (secondFactor === 'check') await this.secondFactor.require(member, organization);
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.policy.absoluteMs);
    await this.repositories.sessions.create({
      id: sessionId(token),
      memberId: member.id,
      orgId: organization.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      revokedAt: null,
    });
    return { token, session: { id: sessionId(token), member, organization, csrfToken: csrfTokenOf(token), expiresAt } };
  }

  /** The session behind a cookie's token, or null when it is unknown, revoked, idle too long or past its end. */
  async resolve(token: string | undefined): Promise<ActiveSession | null> {
    if (!token || token.length > 100) return null;
    const id = sessionId(token);
    const record = await this.repositories.sessions.findById(id);
    const now = Date.now();
    if (
      !record ||
      record.revokedAt ||
      record.expiresAt.getTime() <= now ||
      record.lastSeenAt.getTime() + this.policy.idleMs <= now
    )
      return null;
    const [member, organization] = await Promise.all([
      this.repositories.members.findById(record.memberId),
      this.repositories.organizations.findById(record.orgId),
    ]);
    if (!member || !organization) return null;
    if (now - record.lastSeenAt.getTime() >= TOUCH_RESOLUTION_MS)
      await this.repositories.sessions.touch(id, new Date(now));
    return { id, member, organization, csrfToken: csrfTokenOf(token), expiresAt: record.expiresAt };
  }

  async signOut(session: ActiveSession, address: string): Promise<void> {
    await this.repositories.sessions.revoke(session.id);
    await this.repositories.audit.record({
      orgId: session.organization.id,
      action: 'session.signed_out',
      actor: session.member.email,
      target: null,
      address,
    });
  }
}
