import { Schema, type Connection, type Model } from 'mongoose';
import type { Role } from '@fi/shared';
import { buildIndexes } from '@fi/shared/database';

/** An invitation or a password reset: a single-use link, stored under the hash of its token. */
export interface OneTimeToken {
  id: string;
  kind: 'invitation' | 'password_reset';
  orgId: string;
  email: string;
  /** The role an invitation grants; null for a reset. */
  role: Role | null;
  createdBy: string;
  expiresAt: Date;
}

interface TokenDocument extends Omit<OneTimeToken, 'id'> {
  _id: string;
  usedAt: Date | null;
}

const tokenSchema = new Schema<TokenDocument>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    orgId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, default: null },
    createdBy: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
    usedAt: { type: Date, default: null },
  },
  { collection: 'one_time_tokens', versionKey: false },
);
// A person's links of one kind: ended together when a reset succeeds.
tokenSchema.index({ email: 1, kind: 1 });
// An organization's invitations: listed, and ended with the member who sent them.
tokenSchema.index({ orgId: 1, kind: 1, expiresAt: -1 });

/** The most pending invitations one listing returns. */
export const MAX_LISTED_INVITATIONS = 500;

const toToken = ({ _id, usedAt: _used, ...rest }: TokenDocument): OneTimeToken => ({
  id: _id,
  ...rest,
  role: rest.role ?? null,
});

export class OneTimeTokenRepository {
  private readonly model: Model<TokenDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.OneTimeToken ?? connection.model<TokenDocument>('OneTimeToken', tokenSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async create(token: OneTimeToken): Promise<void> {
    const { id, ...rest } = token;
    await this.model.create({ _id: id, ...rest, usedAt: null });
  }

  /**
   * Marks the token used and returns it, in one atomic step, so two uses of one link cannot both
   * succeed; null when it is unknown, used, expired or of another kind.
   */
  async consume(id: string, kind: OneTimeToken['kind'], now: Date): Promise<OneTimeToken | null> {
    const doc = await this.model
      .findOneAndUpdate(
        { _id: id, kind, usedAt: null, expiresAt: { $gt: now } },
        { $set: { usedAt: now } },
        { new: true },
      )
      .lean<TokenDocument>();
    return doc ? toToken(doc) : null;
  }

  /** Ends every unused link of `kind` sent to `email` (a reset that succeeded ends the older ones). */
  async endAll(kind: OneTimeToken['kind'], email: string, now: Date): Promise<void> {
    await this.model.updateMany({ kind, email, usedAt: null }, { $set: { usedAt: now } });
  }

  /** The organization's invitations not yet used, cancelled or expired, newest first. */
  async pendingInvitations(orgId: string, now: Date): Promise<OneTimeToken[]> {
    const docs = await this.model
      .find({ orgId, kind: 'invitation', usedAt: null, expiresAt: { $gt: now } })
      .sort({ expiresAt: -1 })
      .limit(MAX_LISTED_INVITATIONS)
      .lean<TokenDocument[]>();
    return docs.map(toToken);
  }

  /** One pending invitation of the organization; null when unknown, used, cancelled, expired or another's. */
  async pendingInvitation(orgId: string, id: string, now: Date): Promise<OneTimeToken | null> {
    const doc = await this.model.findById(id).lean<TokenDocument>();
    return doc && doc.orgId === orgId && doc.kind === 'invitation' && !doc.usedAt && doc.expiresAt > now
      ? toToken(doc)
      : null;
  }

  /** Ends a pending link (as used: its token is refused from now on); false when it was no longer pending. */
  async end(id: string, now: Date): Promise<boolean> {
    return (await this.model.updateOne({ _id: id, usedAt: null }, { $set: { usedAt: now } })).modifiedCount === 1;
  }

  /** Ends the pending invitations `inviter` sent to a role outside `stillAllowed` (all of them when none is). */
  async endInvitationsBy(orgId: string, inviter: string, stillAllowed: readonly Role[], now: Date): Promise<void> {
    await this.model.updateMany(
      { orgId, kind: 'invitation', createdBy: inviter, usedAt: null, role: { $nin: [...stillAllowed] } },
      { $set: { usedAt: now } },
    );
  }

  /** Drops what ended before `now` (swept on a timer: FerretDB has no TTL indexes, and MongoDB's run only once a minute anyway). */
  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
