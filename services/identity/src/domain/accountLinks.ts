import { createHash, randomBytes } from 'node:crypto';
import { appError, badRequest, ErrorCode, forbidden, notFound, type Role } from '@fi/shared';
import type { OneTimeToken } from '../data/oneTimeTokenRepository';
import type { IdentityRepositories } from '../data/repositories';
import { actorName, type Actor } from './actor';
import type { MemberService } from './memberService';
import type { ResetRequestLimit } from './resetRequestLimit';
import { checkNewPassword, hashPassword } from './passwords';
import { invitableBy, requireAdmin } from './roles';
import { checkEmail, normalizeEmail, type ActiveSession, type SessionService } from './sessionService';

/** Sends a single-use link (an invitation, a password reset) to one person. */
export interface LinkMailer {
  send(message: { to: string; subject: string; text: string; link: string; purpose: string }): Promise<void>;
}

export const LINK_INVALID = 'This link is invalid, used or expired; ask for a new one';
export const INVITATION_NOT_FOUND = 'Invitation not found';

/** An invitation as owners and admins see it: never the link's token, only its hash as the id. */
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
  invitedBy: string;
}

const toInvitation = ({ id, email, role, expiresAt, createdBy }: OneTimeToken): Invitation[] =>
  role ? [{ id, email, role, expiresAt, invitedBy: createdBy }] : [];

export interface LinkPolicy {
  publicUrl: string;
  invitationTtlMs: number;
  passwordResetTtlMs: number;
}

const tokenId = (token: string) => createHash('sha256').update(token).digest('hex');

const mailUnavailable = () =>
  appError(ErrorCode.SERVICE_UNAVAILABLE, 'Email delivery is not configured (SMTP_URL); ask the operator', {
    retryAfter: 60,
  });

/**
 * Invitations and password resets: a single-use link with a 256-bit token that expires, stored only as
 * its hash, consumed atomically (two uses of one link cannot both succeed).
 */
export class AccountLinkService {
  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly members: MemberService,
    private readonly sessions: SessionService,
    private readonly mailer: LinkMailer | null,
    private readonly policy: LinkPolicy,
    private readonly resetLimit: ResetRequestLimit,
  ) {}

  /** Owners and admins invite; only an owner invites another owner. */
  async invite(actor: Actor & { kind: 'member' }, email: string, role: Role): Promise<Invitation> {
    requireAdmin(actor.member.role, 'invite members');
    if (role === 'owner' && actor.member.role !== 'owner')
      throw forbidden('Only owners can grant or change the owner role');
    const to = checkEmail(email);
    if (await this.repositories.members.findCredentials(to)) throw badRequest('This email already has an account');
    if (!this.mailer) throw mailUnavailable();
    const expiresAt = new Date(Date.now() + this.policy.invitationTtlMs);
    const invitedBy = actorName(actor);
    const token = await this.issue('invitation', actor.member.orgId, to, role, invitedBy, expiresAt);
    const link = `${this.policy.publicUrl}/accept-invitation?token=${token}`;
    await this.mailer.send({
      to,
      subject: `You are invited to ${actor.member.orgId} on Feedback Intelligence`,
      text: `${actor.member.email} invited you as ${role}. Open this link before ${expiresAt.toISOString()} to choose your password; it works once:\n${link}\n`,
      link,
      purpose: 'invitation',
    });
    await this.repositories.audit.record({
      orgId: actor.member.orgId,
      action: 'member.invited',
      actor: actorName(actor),
      target: `${to} as ${role}`,
      address: actor.address,
    });
    return { id: tokenId(token), email: to, role, expiresAt, invitedBy };
  }

  /** The organization's pending invitations, for its owners and admins. */
  async invitations(actor: Actor & { kind: 'member' }): Promise<Invitation[]> {
    requireAdmin(actor.member.role, 'list invitations');
    const pending = await this.repositories.oneTimeTokens.pendingInvitations(actor.member.orgId, new Date());
    return pending.flatMap(toInvitation);
  }

  /** Ends a pending invitation: owners and admins, and only an owner ends an invitation to the owner role. */
  async cancelInvitation(actor: Actor & { kind: 'member' }, id: string): Promise<void> {
    requireAdmin(actor.member.role, 'cancel invitations');
    const now = new Date();
    const invitation = await this.repositories.oneTimeTokens.pendingInvitation(actor.member.orgId, id, now);
    if (!invitation) throw notFound(INVITATION_NOT_FOUND);
    if (invitation.role === 'owner' && actor.member.role !== 'owner')
      throw forbidden('Only owners can grant or change the owner role');
    if (!(await this.repositories.oneTimeTokens.end(invitation.id, now))) throw notFound(INVITATION_NOT_FOUND);
    await this.repositories.audit.record({
      orgId: actor.member.orgId,
      action: 'member.invitation_cancelled',
      actor: actorName(actor),
      target: `${invitation.email} as ${invitation.role}`,
      address: actor.address,
    });
  }

  /** The invited person chooses a name and password; they are signed in at once. */
  async acceptInvitation(
    token: string,
    input: { name: string; password: string },
    address: string,
  ): Promise<{ token: string; session: ActiveSession }> {
    checkNewPassword(input.password);
    const invitation = await this.repositories.oneTimeTokens.consume(tokenId(token), 'invitation', new Date());
    if (!invitation || !invitation.role || !(await this.inviterMayStill(invitation, invitation.role)))
      throw badRequest(LINK_INVALID);
    const member = await this.members.join(
      invitation.orgId,
      { email: invitation.email, name: input.name, role: invitation.role, password: input.password },
      address,
    );
    const organization = await this.repositories.organizations.findById(member.orgId);
    if (!organization) throw badRequest(LINK_INVALID);
    return this.sessions.start(member, organization);
  }

  /**
   * Always answers the same, and sends nothing for an email nobody has: the answer and its timing
   * (the mail goes out after the answer) do not tell which emails have accounts.
   */
  async requestPasswordReset(email: string, address: string, onError: (error: unknown) => void): Promise<void> {
    if (!this.mailer) throw mailUnavailable();
    const mailer = this.mailer;
    const to = normalizeEmail(email);
    await this.resetLimit.take(to, address);
    void (async () => {
      const account = await this.repositories.members.findCredentials(to);
      if (!account) return;
      const expiresAt = new Date(Date.now() + this.policy.passwordResetTtlMs);
      const token = await this.issue('password_reset', account.member.orgId, to, null, to, expiresAt);
      const link = `${this.policy.publicUrl}/reset-password?token=${token}`;
      await mailer.send({
        to,
        subject: 'Reset your Feedback Intelligence password',
        text: `Someone (hopefully you) asked to reset your password. Open this link before ${expiresAt.toISOString()}; it works once:\n${link}\nIf it was not you, ignore this mail: your password is unchanged.\n`,
        link,
        purpose: 'password reset',
      });
      await this.repositories.audit.record({
        orgId: account.member.orgId,
        action: 'password.reset_requested',
        actor: to,
        target: to,
        address,
      });
    })().catch(onError);
  }

  /** Sets the new password and ends every session of the account and every other reset link sent to it. */
  async resetPassword(token: string, password: string, address: string): Promise<void> {
    checkNewPassword(password);
    const now = new Date();
    const reset = await this.repositories.oneTimeTokens.consume(tokenId(token), 'password_reset', now);
    const account = reset ? await this.repositories.members.findCredentials(reset.email) : null;
    if (!reset || !account) throw badRequest(LINK_INVALID);
    // An older link still in a mailbox must not set the password again after this one did.
    await this.repositories.oneTimeTokens.endAll('password_reset', reset.email, now);
    await this.repositories.members.setPassword(account.member.id, await hashPassword(password));
    await this.repositories.sessions.revokeAllOf(account.member.id);
    await this.repositories.audit.record({
      orgId: account.member.orgId,
      action: 'password.reset',
      actor: account.member.email,
      target: account.member.email,
      address,
    });
  }

  /**
   * An invitation holds only while the member who sent it is still in the organization with a role that
   * may invite to it. Removals and demotions end such invitations as they happen; this also refuses one
   * sent by a request that was in flight while its sender was removed.
   */
  private async inviterMayStill(invitation: OneTimeToken, role: Role): Promise<boolean> {
    const inviter = await this.repositories.members.findCredentials(invitation.createdBy);
    return !!inviter && inviter.member.orgId === invitation.orgId && invitableBy(inviter.member.role).includes(role);
  }

  private async issue(
    kind: 'invitation' | 'password_reset',
    orgId: string,
    email: string,
    role: Role | null,
    createdBy: string,
    expiresAt: Date,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.repositories.oneTimeTokens.create({
      id: tokenId(token),
      kind,
      orgId,
      email,
      role,
      createdBy,
      expiresAt,
    });
    return token;
  }
}
