import {
  badRequest,
  hashApiKey,
  hashesEqual,
  isWellFormedApiKey,
  notFound,
  TIERS,
  type Principal,
  type Tier,
} from '@fi/shared';
import type { ApiKeyRecord } from '../data/apiKeyRepository';
import type { Organization } from '../data/organizationRepository';
import type { IdentityRepositories } from '../data/repositories';
import { actorAddress, actorName, createdByMember, type Actor } from './actor';
import { requireAdmin } from './roles';

export const API_KEY_NOT_FOUND = 'API key not found';
const MAX_NAME_LENGTH = 100;
/** lastUsedAt is written at most this often per key: a busy key must not cost a write per request. */
const LAST_USE_RESOLUTION_MS = 60_000;
const MAX_TRACKED_USES = 10_000;

export interface KeyInput {
  name: string;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
}

/** Every rule about API keys: who may create, list and revoke them, what a valid one is, how one is verified. */
export class KeyService {
  private readonly lastWrittenUse = new Map<string, number>();

  constructor(private readonly repositories: IdentityRepositories) {}

  /**
   * The organization, created on the plan `tier` when it is new (an operator's `keys create`); an
   * existing one keeps its plan, and asking for another is refused rather than silently ignored.
   */
  async organizationFor(actor: Actor, orgId: string, tier: Tier | undefined): Promise<Organization> {
    if (orgId.trim() === '' || orgId.length > 200)
      throw badRequest('The organization id must have 1 to 200 characters');
    if (tier !== undefined && !TIERS.includes(tier)) throw badRequest(`The tier must be one of ${TIERS.join(', ')}`);
    const { organization, created } = await this.repositories.organizations.findOrCreate(orgId, {
      name: orgId,
      tier: tier ?? 'free',
    });
    if (created) {
      await this.repositories.audit.record({
        orgId,
        action: 'organization.created',
        actor: actorName(actor),
        target: orgId,
        address: actorAddress(actor),
      });
    } else if (tier !== undefined && tier !== organization.tier) {
      throw badRequest(`Organization ${orgId} is on the ${organization.tier} plan, not ${tier}`);
    }
    return organization;
  }

  async create(actor: Actor, orgId: string, input: KeyInput): Promise<{ key: string; record: ApiKeyRecord }> {
    const scope = this.scopeOf(actor, orgId, 'create API keys');
    const name = input.name.trim();
    if (name === '' || [...name].length > MAX_NAME_LENGTH)
      throw badRequest(`The key name must have 1 to ${MAX_NAME_LENGTH} characters`);
    const limit = input.rateLimitPerMinute;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000_000)) {
      throw badRequest(
        'The rate limit must be a whole number of requests per minute from 1 to 1000000000, or null for the plan limit',
      );
    }
    if (!(await this.repositories.organizations.findById(scope))) throw notFound(`Organization ${scope} not found`);
    const created = await this.repositories.apiKeys.create({
      orgId: scope,
      name,
      readOnly: input.readOnly,
      rateLimitPerMinute: limit,
      createdBy: actorName(actor),
    });
    await this.repositories.audit.record({
      orgId: scope,
      action: 'key.created',
      actor: actorName(actor),
      target: created.record.id,
      address: actorAddress(actor),
    });
    return created;
  }

  list(actor: Actor, orgId: string): Promise<ApiKeyRecord[]> {
    return this.repositories.apiKeys.list(this.scopeOf(actor, orgId, 'list API keys'));
  }

  /** By id, within the actor's organization; an operator may also name the key itself. */
  async revoke(actor: Actor, keyOrId: string): Promise<ApiKeyRecord> {
    const found = await this.find(actor, keyOrId);
    const scope = this.scopeOf(actor, found.orgId, 'revoke API keys');
    const record = await this.repositories.apiKeys.revoke(scope, found.id);
    if (!record) throw notFound(API_KEY_NOT_FOUND);
    if (!found.revokedAt) {
      await this.repositories.audit.record({
        orgId: scope,
        action: 'key.revoked',
        actor: actorName(actor),
        target: record.id,
        address: actorAddress(actor),
      });
    }
    return record;
  }

  async setRateLimit(actor: Actor, keyOrId: string, rateLimitPerMinute: number | null): Promise<ApiKeyRecord> {
    const found = await this.find(actor, keyOrId);
    this.scopeOf(actor, found.orgId, 'change API keys');
    const record = await this.repositories.apiKeys.setRateLimit(found.id, rateLimitPerMinute);
    if (!record) throw notFound(API_KEY_NOT_FOUND);
    return record;
  }

  /** The caller a key stands for, or null when it is malformed, unknown or revoked. */
  async verify(key: unknown): Promise<Principal | null> {
    if (!isWellFormedApiKey(key)) return null;
    const hash = hashApiKey(key);
    const found = await this.repositories.apiKeys.findByHash(hash);
    if (!found || !hashesEqual(found.hash, hash) || found.record.revokedAt) return null;
    const organization = await this.repositories.organizations.findById(found.record.orgId);
    if (!organization) return null;
    this.noteUse(found.record.id);
    const { record } = found;
    return {
      ref: record.id,
      kind: 'key',
      orgId: record.orgId,
      role: record.readOnly ? 'viewer' : 'member',
      tier: organization.tier,
      readOnly: record.readOnly,
      rateLimitPerMinute: record.rateLimitPerMinute,
    };
  }

  /**
   * Whether what the key made (an export's download link) may still be used: the key is the
   * organization's and not revoked, and the member who created it (when a member did, not an operator)
   * is still a member of the organization.
   */
  async isLive(keyId: string, orgId: string): Promise<boolean> {
    const record = await this.repositories.apiKeys.findById(keyId);
    if (!record || record.orgId !== orgId || record.revokedAt) return false;
    if (!createdByMember(record.createdBy)) return true;
    const members = await this.repositories.members.list(orgId);
    return members.some((member) => member.email === record.createdBy);
  }

  private noteUse(id: string): void {
    const now = Date.now();
    const last = this.lastWrittenUse.get(id);
    if (last !== undefined && now - last < LAST_USE_RESOLUTION_MS) return;
    if (this.lastWrittenUse.size >= MAX_TRACKED_USES)
      this.lastWrittenUse.delete(this.lastWrittenUse.keys().next().value as string);
    this.lastWrittenUse.delete(id);
    this.lastWrittenUse.set(id, now);
    // Best effort: a missed last-use time must never fail the request that used the key.
    void this.repositories.apiKeys.touch(id, new Date(now)).catch(() => this.lastWrittenUse.delete(id));
  }

  private async find(actor: Actor, keyOrId: string): Promise<ApiKeyRecord> {
    const byId = keyOrId.startsWith('key_');
    if (!byId && actor.kind === 'member') throw notFound(API_KEY_NOT_FOUND);
    const record = byId
      ? await this.repositories.apiKeys.findById(keyOrId)
      : (await this.repositories.apiKeys.findByHash(hashApiKey(keyOrId)))?.record;
    // Another organization's key is "not found" to a member: ids of other tenants are not confirmed.
    if (!record || (actor.kind === 'member' && record.orgId !== actor.member.orgId)) throw notFound(API_KEY_NOT_FOUND);
    return record;
  }

  /** The organization the actor may manage keys of: a member's own (admins and owners only), any for an operator. */
  private scopeOf(actor: Actor, orgId: string, what: string): string {
    if (actor.kind === 'operator') return orgId;
    requireAdmin(actor.member.role, what);
    return actor.member.orgId;
  }
}
