import { appError, badRequest, ErrorCode, forbidden, notFound, ROLES, type Role } from '@fi/shared';
import type { Member } from '../data/memberRepository';
import type { IdentityRepositories } from '../data/repositories';
import { actorAddress, actorName, type Actor } from './actor';
import { checkNewPassword, hashPassword } from './passwords';
import { signInRequired } from './identityErrors';
import { invitableBy, requireAdmin, requireCanAssign } from './roles';
import { checkEmail, normalizeEmail } from './sessionService';

export const MEMBER_NOT_FOUND = 'Member not found';

export interface NewMember {
  email: string;
  name: string;
  role: Role;
  password: string;
}
const MAX_NAME_LENGTH = 100;
/** A claim outlives any change (a few writes, each within MONGODB_MAX_TIME_MS); a dead holder's ends then. */
const CLAIM_TTL_MS = 60_000;
/** How long a change waits for the one before it, checking every CLAIM_RETRY_MS. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_RETRY_MS = 25;

export function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role)) throw badRequest(`The role must be one of ${ROLES.join(', ')}`);
  return role as Role;
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || [...trimmed].length > MAX_NAME_LENGTH)
    throw badRequest(`The name must have 1 to ${MAX_NAME_LENGTH} characters`);
  return trimmed;
}

/** Members of an organization and their roles; an organization always keeps at least one owner. */
export class MemberService {
  constructor(private readonly repositories: IdentityRepositories) {}

  /** Adds a member with the password an operator chose for them (the demo owner, a first owner). */
  add(actor: Actor & { kind: 'operator' }, orgId: string, input: NewMember): Promise<Member> {
    return this.create(orgId, input, { action: 'member.created', actor: actorName(actor), address: null });
  }

  /** The invited person joins with the role of the invitation and a password of their own. */
  join(orgId: string, input: NewMember, address: string): Promise<Member> {
    return this.create(orgId, input, { action: 'member.joined', actor: normalizeEmail(input.email), address });
  }

  private async create(
    orgId: string,
    input: NewMember,
    audit: { action: 'member.created' | 'member.joined'; actor: string; address: string | null },
  ): Promise<Member> {
    const email = checkEmail(input.email);
    const name = checkName(input.name);
    checkNewPassword(input.password);
    if (!(await this.repositories.organizations.findById(orgId))) throw notFound(`Organization ${orgId} not found`);
    const member = await this.repositories.members.create({
      orgId,
      email,
      name,
      role: input.role,
      passwordHash: await hashPassword(input.password),
    });
    if (!member) throw badRequest('This email already has an account');
    await this.repositories.audit.record({ orgId, ...audit, target: email });
    return member;
  }

  list(actor: Actor & { kind: 'member' }): Promise<Member[]> {
    return this.repositories.members.list(actor.member.orgId);
  }

  /** The signed-in member's own mail opt-ins; every role may choose what it receives. */
  async setMailOptIns(
    actor: Actor & { kind: 'member' },
    optIns: { alertEmails?: boolean | null; digestEmails?: boolean | null },
  ): Promise<Member> {
    const changes = Object.fromEntries(
      Object.entries(optIns).filter(([, value]) => typeof value === 'boolean'),
    ) as Partial<Pick<Member, 'alertEmails' | 'digestEmails'>>;
    const member = await this.repositories.members.setMailOptIns(actor.member.orgId, actor.member.id, changes);
    if (!member) throw notFound('Member not found');
    return member;
  }

  async changeRole(actor: Actor & { kind: 'member' }, memberId: string, role: Role): Promise<Member> {
    return this.oneChangeAtATime(actor, async (current) => {
      const target = await this.findInOrg(current, memberId);
      requireCanAssign(current.member.role, target.role, role);
      return this.giveRole(target, role, { actor: actorName(current), address: actorAddress(current) });
    });
  }

  /**
   * Gives `target` the role, inside the organization's turn (see inTurn): the last owner stays, and their
   * invitations to roles they may no longer invite to end with a demotion.
   */
  async giveRole(target: Member, role: Role, audit: { actor: string; address: string | null }): Promise<Member> {
    if (target.role === role) return target;
    await this.keepAnOwner(target, role);
    const changed = await this.repositories.members.setRole(target.orgId, target.id, role);
    if (!changed) throw notFound(MEMBER_NOT_FOUND);
    await this.repositories.oneTimeTokens.endInvitationsBy(target.orgId, target.email, invitableBy(role), new Date());
    await this.repositories.audit.record({
      orgId: target.orgId,
      action: 'member.role_changed',
      ...audit,
      target: `${target.email}: ${target.role} -> ${role}`,
    });
    return changed;
  }

  async remove(actor: Actor & { kind: 'member' }, memberId: string): Promise<void> {
    await this.oneChangeAtATime(actor, async (current) => {
      const target = await this.findInOrg(current, memberId);
      requireAdmin(current.member.role, 'remove members');
      if (target.role === 'owner' && current.member.role !== 'owner')
        throw forbidden('Only owners can remove an owner');
      await this.takeOut(target, {
        action: 'member.removed',
        actor: actorName(current),
        address: actorAddress(current),
      });
    });
  }

  /**
   * Takes a member out of their organization, inside its turn (see inTurn): the last owner stays; their
   * sessions and pending invitations end with them.
   */
  async takeOut(
    target: Member,
    audit: { action: 'member.removed' | 'member.deactivated'; actor: string; address: string | null },
  ): Promise<void> {
    await this.keepAnOwner(target, null);
    if (!(await this.repositories.members.remove(target.orgId, target.id))) throw notFound(MEMBER_NOT_FOUND);
    await this.repositories.sessions.revokeAllOf(target.id);
    await this.repositories.oneTimeTokens.endInvitationsBy(target.orgId, target.email, [], new Date());
    await this.repositories.audit.record({ orgId: target.orgId, ...audit, target: target.email });
  }

  /**
   * Role changes and removals of one organization take turns, each holding the organization's claim
   * (a unique insert in the database) while it reads and writes: two owners demoting or removing each
   * other at the same instant cannot both pass "keep one owner", whichever database runs. The actor is
   * read again inside, so a change is judged by the role the actor has now, not the one their session
   * started with.
   */
  private oneChangeAtATime<T>(
    actor: Actor & { kind: 'member' },
    change: (current: Actor & { kind: 'member' }) => Promise<T>,
  ): Promise<T> {
    return this.inTurn(actor.member.orgId, async () => {
      const member = await this.repositories.members.findById(actor.member.id);
      if (!member || member.orgId !== actor.member.orgId) throw signInRequired();
      return change({ ...actor, member });
    });
  }

  /** Runs `change` holding the organization's members claim (a unique insert), waiting for the change before it. */
  async inTurn<T>(orgId: string, change: () => Promise<T>): Promise<T> {
    const name = `members:${orgId}`;
    const deadline = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      const holder = await this.repositories.claims.claim(name, new Date(), CLAIM_TTL_MS);
      if (holder) {
        try {
          return await change();
        } finally {
          await this.repositories.claims.release(name, holder);
        }
      }
      if (Date.now() >= deadline)
        throw appError(
          ErrorCode.SERVICE_UNAVAILABLE,
          "Another change of this organization's members is under way; retry shortly",
          { retryAfter: 1 },
        );
      await new Promise((resolve) => setTimeout(resolve, CLAIM_RETRY_MS));
    }
  }

  private async findInOrg(actor: Actor & { kind: 'member' }, memberId: string): Promise<Member> {
    const target = await this.repositories.members.findById(memberId);
    if (!target || target.orgId !== actor.member.orgId) throw notFound(MEMBER_NOT_FOUND);
    return target;
  }

  /** BAD_REQUEST when `target` is the organization's last owner and would lose the role (`newRole` null: leave). */
  async keepAnOwner(target: Member, newRole: Role | null): Promise<void> {
    if (target.role !== 'owner' || newRole === 'owner') return;
    if ((await this.repositories.members.countWithRole(target.orgId, 'owner')) <= 1)
      throw badRequest('An organization keeps at least one owner');
  }
}
