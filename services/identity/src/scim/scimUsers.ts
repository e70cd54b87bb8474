import { randomBytes } from 'node:crypto';
import type { Role } from '@fi/shared';
import type { Member } from '../data/memberRepository';
import type { IdentityRepositories } from '../data/repositories';
import type { MemberService } from '../domain/memberService';
import { checkName } from '../domain/memberService';
import { hashPassword } from '../domain/passwords';
import { checkEmail } from '../domain/sessionService';
import type { ProvisionedUser, ProvisionedUserRepository, ScimTokenRecord } from './data';
import { listWindow, parseEqualityFilter } from './scimFilter';
import { invalidValue, ScimError, userNotFound } from './scimErrors';
import { patchUser, type PatchOperation, type UserInput } from './userInput';

/** Who provisions: the token's organization and role, and the provider's address. */
export interface ScimCaller {
  token: ScimTokenRecord;
  address: string;
}

/** A person as the identity provider reads them: a member (active) or the record of a deactivated one. */
export interface ScimUser extends UserInput {
  id: string;
  role: Role;
  created: Date;
  lastModified: Date;
}

/** The actor recorded in the audit log for what the identity provider does. */
export const SCIM_ACTOR = 'scim';
/** New people get this role; the provider changes it through the groups (the roles). */
const DEFAULT_ROLE: Role = 'member';
const taken = (email: string) => new ScimError(409, `A user with userName ${email} already exists`, 'uniqueness');

/**
 * The organization's people as SCIM Users (RFC 7643 section 4.1): every member, and the people the provider
 * deactivated. Deactivating takes the person out of the organization as removing a member does (their
 * sessions end at once, the last owner stays) while their record keeps who they were; every change runs in
 * the organization's members turn, so it cannot race a role change or removal made in the web application.
 */
export class ScimUsers {
  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly members: MemberService,
    private readonly provisioned: ProvisionedUserRepository,
  ) {}

  async get(caller: ScimCaller, id: string): Promise<ScimUser> {
    const user = await this.find(caller.token.orgId, id);
    if (!user) throw userNotFound(id);
    return user;
  }

  /** Members first (oldest first), then the inactive people; `filter` narrows to one userName or externalId. */
  async list(caller: ScimCaller, query: URLSearchParams): Promise<{ total: number; skip: number; items: ScimUser[] }> {
    const orgId = caller.token.orgId;
    const { skip, take } = listWindow(query);
    const filter = query.get('filter');
    if (filter) {
      const { attribute, value } = parseEqualityFilter(filter, ['username', 'externalid']);
      const found =
        attribute === 'username' ? await this.findByEmail(orgId, value) : await this.findByExternalId(orgId, value);
      const all = found ? [found] : [];
      return { total: all.length, skip, items: all.slice(skip, skip + take) };
    }
    const active = await this.repositories.members.page(orgId, skip, take);
    const inactiveSkip = Math.max(0, skip - active.total);
    const inactiveTake = Math.max(0, take - active.items.length);
    const inactive = await this.provisioned.pageInactive(orgId, inactiveSkip, inactiveTake);
    const records = await this.provisioned.findMany(
      orgId,
      active.items.map((member) => member.id),
    );
    const byId = new Map(records.map((record) => [record.id, record]));
    return {
      total: active.total + inactive.total,
      skip,
      items: [
        ...active.items.map((member) => activeUser(member, byId.get(member.id))),
        ...inactive.items.map(inactiveUser),
      ],
    };
  }

  async create(caller: ScimCaller, input: UserInput): Promise<ScimUser> {
    const orgId = caller.token.orgId;
    const email = emailOf(input.userName);
    const name = nameOf(input, email);
    const passwordHash = await unusablePassword();
    return this.members.inTurn(orgId, async () => {
      if (await this.emailTaken(orgId, email, null)) throw taken(email);
      const now = new Date();
      const record: ProvisionedUser = {
        ...profileOf(input),
        id: '',
        orgId,
        active: input.active,
        email,
        name,
        role: DEFAULT_ROLE,
        createdAt: now,
        updatedAt: now,
      };
      if (input.active) {
        const member = await this.repositories.members.create({ orgId, email, name, role: DEFAULT_ROLE, passwordHash });
        if (!member) throw taken(email);
        record.id = member.id;
        record.createdAt = member.createdAt;
      } else {
        record.id = `mem_${randomBytes(8).toString('hex')}`;
      }
      await this.provisioned.save(record);
      await this.audit(caller, 'member.provisioned', email);
      return (await this.find(orgId, record.id)) ?? inactiveUser(record);
    });
  }

  async replace(caller: ScimCaller, id: string, input: UserInput): Promise<ScimUser> {
    const passwordHash = await unusablePassword();
    return this.members.inTurn(caller.token.orgId, async () => {
      const current = await this.find(caller.token.orgId, id);
      if (!current) throw userNotFound(id);
      return this.write(caller, current, input, passwordHash);
    });
  }

  async patch(caller: ScimCaller, id: string, operations: PatchOperation[]): Promise<ScimUser> {
    const passwordHash = await unusablePassword();
    return this.members.inTurn(caller.token.orgId, async () => {
      const current = await this.find(caller.token.orgId, id);
      if (!current) throw userNotFound(id);
      return this.write(caller, current, patchUser(current, operations), passwordHash);
    });
  }

  async remove(caller: ScimCaller, id: string): Promise<void> {
    const orgId = caller.token.orgId;
    await this.members.inTurn(orgId, async () => {
      const current = await this.find(orgId, id);
      if (!current) throw userNotFound(id);
      requireTokenMayChange(caller, current.role);
      if (current.active) {
        const member = await this.repositories.members.findById(id);
        if (member)
          await this.members.takeOut(member, { action: 'member.removed', actor: SCIM_ACTOR, address: caller.address });
      } else {
        await this.audit(caller, 'member.removed', current.userName);
      }
      await this.provisioned.remove(orgId, id);
    });
  }

  /** Writes `next` over `current` inside the organization's turn: profile, then (de)activation. */
  private async write(caller: ScimCaller, current: ScimUser, next: UserInput, passwordHash: string): Promise<ScimUser> {
    const orgId = caller.token.orgId;
    const email = emailOf(next.userName);
    const name = nameOf(next, email);
    const changesSomething =
      email !== current.userName ||
      name !== current.displayName ||
      next.active !== current.active ||
      next.externalId !== current.externalId ||
      next.givenName !== current.givenName ||
      next.familyName !== current.familyName;
    if (!changesSomething) return current;
    requireTokenMayChange(caller, current.role);
    if (email !== current.userName && (await this.emailTaken(orgId, email, current.id))) throw taken(email);
    const record: ProvisionedUser = {
      ...profileOf(next),
      id: current.id,
      orgId,
      active: next.active,
      email,
      name,
      role: current.role,
      createdAt: current.created,
      updatedAt: new Date(),
    };
    if (current.active && !next.active) {
      const member = await this.repositories.members.findById(current.id);
      if (!member) throw userNotFound(current.id);
      // Refused before anything is written when this is the last owner.
      await this.members.keepAnOwner(member, null);
      await this.provisioned.save(record);
      await this.members.takeOut(member, { action: 'member.deactivated', actor: SCIM_ACTOR, address: caller.address });
    } else if (!current.active && next.active) {
      const restored = await this.repositories.members.create(
        { orgId, email, name, role: current.role, passwordHash },
        { id: current.id, createdAt: current.created },
      );
      if (!restored) throw taken(email);
      await this.provisioned.save(record);
      await this.audit(caller, 'member.reactivated', email);
    } else {
      if (current.active) {
        const updated = await this.repositories.members.setProfile(orgId, current.id, { email, name });
        if (updated === 'taken') throw taken(email);
        if (!updated) throw userNotFound(current.id);
      }
      await this.provisioned.save(record);
      await this.audit(caller, 'member.updated', email);
    }
    const written = await this.find(orgId, current.id);
    if (!written) throw userNotFound(current.id);
    return written;
  }

  /** The person with this id in the organization: a member (active), or a deactivated person's record. */
  private async find(orgId: string, id: string): Promise<ScimUser | null> {
    const [member, record] = await Promise.all([
      this.repositories.members.findById(id),
      this.provisioned.findById(orgId, id),
    ]);
    if (member && member.orgId === orgId) return activeUser(member, record ?? undefined);
    return record && !record.active ? inactiveUser(record) : null;
  }

  private async findByEmail(orgId: string, userName: string): Promise<ScimUser | null> {
    const email = userName.trim().toLowerCase();
    const credentials = await this.repositories.members.findCredentials(email);
    if (credentials && credentials.member.orgId === orgId) return this.find(orgId, credentials.member.id);
    const inactive = await this.provisioned.findInactiveByEmail(orgId, email);
    return inactive ? inactiveUser(inactive) : null;
  }

  private async findByExternalId(orgId: string, externalId: string): Promise<ScimUser | null> {
    const record = await this.provisioned.findByExternalId(orgId, externalId);
    return record ? this.find(orgId, record.id) : null;
  }

  /** Whether anyone but `except` has the email: a member of any organization, or a deactivated person of this one. */
  private async emailTaken(orgId: string, email: string, except: string | null): Promise<boolean> {
    const [credentials, inactive] = await Promise.all([
      this.repositories.members.findCredentials(email),
      this.provisioned.findInactiveByEmail(orgId, email),
    ]);
    return (credentials !== null && credentials.member.id !== except) || (inactive !== null && inactive.id !== except);
  }

  private audit(
    caller: ScimCaller,
    action: 'member.provisioned' | 'member.updated' | 'member.reactivated' | 'member.removed',
    email: string,
  ) {
    return this.repositories.audit.record({
      orgId: caller.token.orgId,
      action,
      actor: SCIM_ACTOR,
      target: email,
      address: caller.address,
    });
  }
}

/** An admin's token manages everyone but owners; only an owner's token (or an operator's) changes an owner. */
export function requireTokenMayChange(caller: ScimCaller, role: Role): void {
  if (role === 'owner' && caller.token.role !== 'owner')
    throw new ScimError(403, 'Only a SCIM token made by an owner can change an owner');
}

function emailOf(userName: string): string {
  try {
    return checkEmail(userName);
  } catch {
    throw invalidValue('userName must be an email address (the person signs in with it)');
  }
}

/** The member's name: displayName, else the formatted or given and family names, else the email. */
function nameOf(input: UserInput, email: string): string {
  const parts = [input.givenName, input.familyName].filter(Boolean).join(' ');
  const name = input.displayName ?? input.formatted ?? (parts || email);
  try {
    return checkName(name);
  } catch {
    throw invalidValue('displayName must have 1 to 100 characters');
  }
}

const profileOf = (input: UserInput) => ({
  externalId: input.externalId,
  givenName: input.givenName,
  familyName: input.familyName,
});

/**
 * A provisioned person signs in through the organization's single sign-on, or sets a password with a reset
 * link: the password they are created with is random and never shown, so it matches nothing anyone can type.
 */
const unusablePassword = () => hashPassword(randomBytes(32).toString('base64url'));

function activeUser(member: Member, record: ProvisionedUser | undefined): ScimUser {
  return {
    id: member.id,
    userName: member.email,
    displayName: member.name,
    givenName: record?.givenName ?? null,
    familyName: record?.familyName ?? null,
    formatted: null,
    externalId: record?.externalId ?? null,
    active: true,
    role: member.role,
    created: member.createdAt,
    lastModified: record?.updatedAt ?? member.createdAt,
  };
}

function inactiveUser(record: ProvisionedUser): ScimUser {
  return {
    id: record.id,
    userName: record.email,
    displayName: record.name,
    givenName: record.givenName,
    familyName: record.familyName,
    formatted: null,
    externalId: record.externalId,
    active: false,
    role: record.role,
    created: record.createdAt,
    lastModified: record.updatedAt,
  };
}
