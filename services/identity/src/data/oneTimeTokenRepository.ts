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
    if (!doc) return null;
    const { _id, usedAt: _used, ...rest } = doc;
    return { id: _id, ...rest, role: rest.role ?? null };
  }

  /** Ends every unused link of `kind` sent to `email` (a reset that succeeded ends the older ones). */
  async endAll(kind: OneTimeToken['kind'], email: string, now: Date): Promise<void> {
    await this.model.updateMany({ kind, email, usedAt: null }, { $set: { usedAt: now } });
  }

  /** Drops what ended before `now` (swept on a timer: FerretDB has no TTL indexes, and MongoDB's run only once a minute anyway). */
  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
