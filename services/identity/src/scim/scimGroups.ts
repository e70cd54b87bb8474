import { isPlainObject, ROLES, type Role } from '@fi/shared';
import type { Member } from '../data/memberRepository';
import type { IdentityRepositories } from '../data/repositories';
import type { MemberService } from '../domain/memberService';
import { requireCanAssign } from '../domain/roles';
import { listWindow, parseEqualityFilter } from './scimFilter';
import { invalidSyntax, invalidValue, ScimError } from './scimErrors';
import { SCIM_ACTOR, type ScimCaller } from './scimUsers';
import type { PatchOperation } from './userInput';

/** A role as a SCIM Group: its id and name are the role's, its members the members who have it. */
export interface ScimGroup {
  id: Role;
  members: Member[];
}

/** Taken out of a role's group, a member keeps the least of the roles rather than none (every member has one). */
const FALLBACK_ROLE: Role = 'viewer';
const MEMBER_PATH = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
export const groupNotFound = (id: string) =>
  new ScimError(404, `Group ${id} not found; the groups are the roles ${ROLES.join(', ')}`);

/**
 * The four roles as fixed groups: a provider assigns a role by adding the person to its group (Okta's
 * pushed groups linked to them, Entra's group assignments). Groups are neither created, renamed nor deleted.
 */
export class ScimGroups {
  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly members: MemberService,
  ) {}

  async get(caller: ScimCaller, id: string): Promise<ScimGroup> {
    if (!isRole(id)) throw groupNotFound(id);
    return { id, members: await this.repositories.members.listWithRole(caller.token.orgId, id) };
  }

  async list(caller: ScimCaller, query: URLSearchParams): Promise<{ total: number; skip: number; items: ScimGroup[] }> {
    const { skip, take } = listWindow(query);
    const filter = query.get('filter');
    let roles: Role[] = [...ROLES];
    if (filter) {
      const { value } = parseEqualityFilter(filter, ['displayname']);
      roles = roles.filter((role) => role === value.toLowerCase());
    }
    const items = await Promise.all(roles.slice(skip, skip + take).map((role) => this.get(caller, role)));
    return { total: roles.length, skip, items };
  }

  /** Adds or takes people out of the role's group (Okta's and Entra's PatchOp shapes), all or nothing. */
  async patch(caller: ScimCaller, id: string, operations: PatchOperation[]): Promise<ScimGroup> {
    if (!isRole(id)) throw groupNotFound(id);
    await this.members.inTurn(caller.token.orgId, async () => {
      const current = await this.idsWithRole(caller, id);
      let wanted = new Set(current);
      for (const { op, path, value } of operations) {
        const single = path ? MEMBER_PATH.exec(path) : null;
        if (single) {
          if (op !== 'remove')
            throw new ScimError(400, `${op} with a filtered members path is not supported`, 'invalidPath');
          wanted.delete(single[1]);
        } else if (path === null || path.toLowerCase() === 'members') {
          if (path === null) {
            // Okta sends {"op":"replace","value":{"id":...,"displayName":...}} when it pushes a group's name.
            if (!isPlainObject(value)) throw invalidValue('An operation without a path needs an object value');
            requireSameName(id, value.displayName);
            if (value.members === undefined) continue;
          }
          const ids =
            op === 'remove' && value === undefined
              ? []
              : memberIds(path === null && isPlainObject(value) ? value.members : value);
          if (op === 'add') ids.forEach((memberId) => wanted.add(memberId));
          else if (op === 'remove')
            wanted = ids.length > 0 ? new Set([...wanted].filter((memberId) => !ids.includes(memberId))) : new Set();
          else wanted = new Set(ids);
        } else if (path.toLowerCase() === 'displayname') {
          requireSameName(id, value);
        } else if (!path.toLowerCase().startsWith('externalid')) {
          throw new ScimError(400, `Unknown attribute ${path}`, 'invalidPath');
        }
      }
      await this.apply(caller, id, current, [...wanted]);
    });
    return this.get(caller, id);
  }

  /** PUT: the group's members become exactly those listed. */
  async replace(caller: ScimCaller, id: string, body: unknown): Promise<ScimGroup> {
    if (!isRole(id)) throw groupNotFound(id);
    if (!isPlainObject(body)) throw invalidSyntax('The body must be a Group resource (a JSON object)');
    requireSameName(id, body.displayName);
    const ids = memberIds(body.members ?? []);
    await this.members.inTurn(caller.token.orgId, async () =>
      this.apply(caller, id, await this.idsWithRole(caller, id), ids),
    );
    return this.get(caller, id);
  }

  private async idsWithRole(caller: ScimCaller, role: Role): Promise<string[]> {
    return (await this.repositories.members.listWithRole(caller.token.orgId, role)).map((member) => member.id);
  }

  /**
   * Makes `wanted` the role's members, all or nothing: every change is checked first (each person a member
   * of this organization, the token allowed to make the change, an owner left), then made, people becoming
   * owners before owners leave, so a swap of owners passes.
   */
  private async apply(caller: ScimCaller, role: Role, current: string[], wanted: string[]): Promise<void> {
    const joining = wanted.filter((memberId) => !current.includes(memberId));
    const leaving = role === FALLBACK_ROLE ? [] : current.filter((memberId) => !wanted.includes(memberId));
    const changes = [
      ...(await Promise.all(
        joining.map(async (memberId) => ({ member: await this.memberOf(caller, memberId), to: role })),
      )),
      ...(await Promise.all(
        leaving.map(async (memberId) => ({ member: await this.memberOf(caller, memberId), to: FALLBACK_ROLE })),
      )),
    ];
    for (const { member, to } of changes) requireCanAssign(caller.token.role, member.role, to);
    const owners = await this.repositories.members.countWithRole(caller.token.orgId, 'owner');
    const ownersAfter =
      owners +
      changes.filter(({ member, to }) => to === 'owner' && member.role !== 'owner').length -
      changes.filter(({ member, to }) => member.role === 'owner' && to !== 'owner').length;
    if (ownersAfter < 1) throw invalidValue('An organization keeps at least one owner');
    changes.sort((a, b) => Number(b.to === 'owner') - Number(a.to === 'owner'));
    for (const { member, to } of changes)
      await this.members.giveRole(member, to, { actor: SCIM_ACTOR, address: caller.address });
  }

  private async memberOf(caller: ScimCaller, id: string): Promise<Member> {
    const member = await this.repositories.members.findById(id);
    if (!member || member.orgId !== caller.token.orgId)
      throw new ScimError(400, `No active user ${id} in this organization`, 'invalidValue');
    return member;
  }
}

function requireSameName(id: Role, displayName: unknown): void {
  if (displayName !== undefined && (typeof displayName !== 'string' || displayName.toLowerCase() !== id))
    throw new ScimError(400, `Group ${id} is a role: its displayName stays ${id}`, 'mutability');
}

/** The ids of `[{ "value": id }, ...]`. */
function memberIds(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalidValue('members must be an array of { "value": id }');
  return value.map((entry: unknown) => {
    if (!isPlainObject(entry) || typeof entry.value !== 'string')
      throw invalidValue('members must be an array of { "value": id }');
    return entry.value;
  });
}
