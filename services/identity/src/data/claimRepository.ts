import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

interface ClaimDocument {
  _id: string;
  /** Who holds it: only the holder gives it back. */
  holder: string;
  /** A holder that died (or hangs) loses its claim then. */
  expiresAt: Date;
}

const claimSchema = new Schema<ClaimDocument>(
  {
    _id: { type: String, required: true },
    holder: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'claims', versionKey: false },
);

/**
 * Exclusive claims on a name (e.g. the members of one organization), taken by inserting a document with
 * that `_id`: exactly one caller can, on MongoDB and on the embedded FerretDB alike (FerretDB v1 does not
 * apply concurrent conditional updates atomically, but refuses a second insert of an `_id`).
 */
export class ClaimRepository {
  private readonly model: Model<ClaimDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.Claim ?? connection.model<ClaimDocument>('Claim', claimSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /** The holder's token when this caller now holds `name` for `ttlMs`; null when another holds it. */
  async claim(name: string, now: Date, ttlMs: number): Promise<string | null> {
    // A claim its holder never gave back ends at its expiry.
    await this.model.deleteOne({ _id: name, expiresAt: { $lte: now } });
    const holder = randomBytes(12).toString('hex');
    try {
      await this.model.create({ _id: name, holder, expiresAt: new Date(now.getTime() + ttlMs) });
      return holder;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
  }

  async release(name: string, holder: string): Promise<void> {
    await this.model.deleteOne({ _id: name, holder });
  }

  /** Drops what ended before `now` (swept on a timer, as the other expiring records). */
  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
