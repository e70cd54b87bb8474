import { forbidden, ROLES, type Role } from '@fi/shared';

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** Owners and admins manage keys, members and invitations and read the audit log. */
export function requireAdmin(role: Role, what: string): void {
  if (RANK[role] < RANK.admin) throw forbidden(`Only owners and admins can ${what}`);
}

/** Only an owner grants or takes away the owner role, and only an owner changes another owner. */
export function requireCanAssign(actorRole: Role, fromRole: Role, toRole: Role): void {
  requireAdmin(actorRole, 'change roles');
  if ((fromRole === 'owner' || toRole === 'owner') && actorRole !== 'owner')
    throw forbidden('Only owners can grant or change the owner role');
}

/** The roles a member with `role` may invite people to (and so whose invitations of theirs stay valid). */
export const invitableBy = (role: Role): Role[] =>
  RANK[role] < RANK.admin ? [] : ROLES.filter((invited) => invited !== 'owner' || role === 'owner');
