import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type FilterQuery, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

export const AUDIT_ACTIONS = [
  'organization.created',
  'session.signed_in',
  'session.sign_in_failed',
  'session.signed_out',
  'key.created',
  'key.revoked',
  'member.created',
  'member.invited',
  'member.invitation_cancelled',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'password.reset_requested',
  'password.reset',
  // Provisioning from the organization's identity provider (SCIM), with the tokens it uses.
  'member.provisioned',
  'member.updated',
  'member.deactivated',
  'member.reactivated',
  'scim.token_created',
  'scim.token_revoked',
  // Single sign-on (src/sso): its settings, sign-ins through it, and every refusal with its reason.
  'sso.connection_set',
  'sso.connection_removed',
  'sso.domain_added',
  'sso.domain_verified',
  'sso.domain_removed',
  'sso.required_changed',
  'sso.signed_in',
  'sso.member_provisioned',
  'sso.sign_in_refused',
  'sso.password_refused',
  'sso.break_glass_sign_in',
  // Two-factor sign-in.
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.failed',
  'two_factor.recovery_code_used',
  'two_factor.required_changed',
  // Connected platforms, recorded by the integrations service (see domain/serviceAudit.ts).
  'integration.added',
  'integration.paused',
  'integration.resumed',
  'integration.secret_rotated',
  'integration.removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who, what, when, from where. `orgId` is null for a failed sign-in to an email nobody has. */
export interface AuditEntry {
  id: string;
  orgId: string | null;
  action: AuditAction;
  /** A member's email, `cli` for an operator's command, or `anonymous`. */
  actor: string;
  /** What was acted on: a key id, a member's email, an organization. */
  target: string | null;
  /** The client address, or null when the action did not come over the network (the CLI). */
  address: string | null;
  at: Date;
}

/** What the log is narrowed to; absent fields do not narrow it. */
export interface AuditFilter {
  action?: AuditAction;
  actor?: string;
  from?: Date;
  to?: Date;
}

interface AuditDocument extends Omit<AuditEntry, 'id'> {
  _id: string;
}

const auditSchema = new Schema<AuditDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, default: null },
    action: { type: String, required: true },
    actor: { type: String, required: true },
    target: { type: String, default: null },
    address: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { collection: 'audit_log', versionKey: false },
);
// The unfiltered log and a time range; an action's entries; one actor's entries (each newest first).
auditSchema.index({ orgId: 1, at: -1, _id: -1 });
auditSchema.index({ orgId: 1, action: 1, at: -1, _id: -1 });
auditSchema.index({ orgId: 1, actor: 1, at: -1, _id: -1 });

const toEntry = ({ _id, ...rest }: AuditDocument): AuditEntry => ({ id: _id, ...rest });

export class AuditRepository {
  private readonly model: Model<AuditDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.AuditEntry ?? connection.model<AuditDocument>('AuditEntry', auditSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async record(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<void> {
    // Ids sort by time, so entries of the same millisecond keep their order.
    const id = `${Date.now().toString(36).padStart(9, '0')}${randomBytes(6).toString('hex')}`;
    await this.model.create({ _id: id, ...entry, at: new Date() });
  }

  /** Newest first, the entries matching every filter given. */
  async page(
    orgId: string,
    filter: AuditFilter,
    skip: number,
    take: number,
  ): Promise<{ total: number; items: AuditEntry[] }> {
    const query: FilterQuery<AuditDocument> = { orgId };
    if (filter.action) query.action = filter.action;
    if (filter.actor) query.actor = filter.actor;
    if (filter.from || filter.to)
      query.at = { ...(filter.from && { $gte: filter.from }), ...(filter.to && { $lt: filter.to }) };
    const [total, docs] = await Promise.all([
      this.model.countDocuments(query),
      this.model.find(query).sort({ at: -1, _id: -1 }).skip(skip).limit(take).lean<AuditDocument[]>(),
    ]);
    return { total, items: docs.map(toEntry) };
  }
}
