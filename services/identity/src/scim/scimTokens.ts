import { randomBytes } from 'node:crypto';
import { badRequest, hashApiKey, hashesEqual, notFound } from '@fi/shared';
import type { IdentityRepositories } from '../data/repositories';
import { actorAddress, actorName, type Actor } from '../domain/actor';
import { requireAdmin } from '../domain/roles';
import type { ScimTokenRecord, ScimTokenRepository } from './data';

export const SCIM_TOKEN_PREFIX = 'fis_';
const TOKEN_PATTERN = /^fis_[A-Za-z0-9_-]{43}$/;
const MAX_NAME_LENGTH = 100;
/** lastUsedAt is written at most this often per token: a provisioning run must not cost a write per request. */
const LAST_USE_RESOLUTION_MS = 60_000;
export const SCIM_TOKEN_NOT_FOUND = 'SCIM token not found';

/**
 * The bearer tokens an organization's identity provider provisions people with: 256 random bits, shown
 * once, stored as their SHA-256, revocable, every creation and revocation audited. Checked on every request
 * (nothing caches them), so a revoked token stops at once.
 */
export class ScimTokenService {
  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly tokens: ScimTokenRepository,
  ) {}

  /** Owners and admins of the organization, or an operator; the token acts with its creator's role (owner for an operator). */
  async create(actor: Actor, orgId: string, name: string): Promise<{ token: string; record: ScimTokenRecord }> {
    const scope = this.scopeOf(actor, orgId);
    const trimmed = name.trim();
    if (trimmed === '' || [...trimmed].length > MAX_NAME_LENGTH)
      throw badRequest(`The token name must have 1 to ${MAX_NAME_LENGTH} characters`);
    if (!(await this.repositories.organizations.findById(scope))) throw notFound(`Organization ${scope} not found`);
    const token = `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record = await this.tokens.create(
      {
        orgId: scope,
        name: trimmed,
        hint: token.slice(0, 8),
        role: actor.kind === 'member' && actor.member.role !== 'owner' ? 'admin' : 'owner',
        createdBy: actorName(actor),
      },
      hashApiKey(token),
    );
    await this.repositories.audit.record({
      orgId: scope,
      action: 'scim.token_created',
      actor: actorName(actor),
      target: record.id,
      address: actorAddress(actor),
    });
    return { token, record };
  }

  list(actor: Actor, orgId: string): Promise<ScimTokenRecord[]> {
    return this.tokens.list(this.scopeOf(actor, orgId));
  }

  async revoke(actor: Actor, orgId: string, id: string): Promise<ScimTokenRecord> {
    const scope = this.scopeOf(actor, orgId);
    const record = await this.tokens.revoke(scope, id);
    if (!record) throw notFound(SCIM_TOKEN_NOT_FOUND);
    await this.repositories.audit.record({
      orgId: scope,
      action: 'scim.token_revoked',
      actor: actorName(actor),
      target: record.id,
      address: actorAddress(actor),
    });
    return record;
  }

  /** The live token's record, or null for anything else (malformed, unknown, revoked). */
  async verify(token: string): Promise<ScimTokenRecord | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const hash = hashApiKey(token);
    const found = await this.tokens.findByHash(hash);
    if (!found || !hashesEqual(found.hash, hash) || found.record.revokedAt) return null;
    const now = new Date();
    if (!found.record.lastUsedAt || now.getTime() - found.record.lastUsedAt.getTime() >= LAST_USE_RESOLUTION_MS)
      await this.tokens.touch(found.record.id, now);
    return found.record;
  }

  /** A member acts on their own organization (owners and admins only); an operator names it. */
  private scopeOf(actor: Actor, orgId: string): string {
    if (actor.kind === 'operator') return orgId;
    requireAdmin(actor.member.role, 'manage SCIM tokens');
    return actor.member.orgId;
  }
}
