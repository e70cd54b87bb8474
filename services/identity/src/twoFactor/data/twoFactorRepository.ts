import { Schema, type Connection, type Model } from 'mongoose';
import type { SealedSecret } from '@fi/shared';
import { buildIndexes } from '@fi/shared/database';

/** A member's two-factor setup: the sealed TOTP secret, on once confirmed by a first code; recovery codes' hashes. */
export interface TwoFactorRecord {
  memberId: string;
  orgId: string;
  /** Sealed under TWO_FACTOR_SECRET_KEY (SecretBox), bound to the member's id. */
  secret: SealedSecret;
  /** Null while the setup waits for its first code: sign-in does not ask for it yet. */
  confirmedAt: Date | null;
  /** Names this set of recovery codes: a code's use is recorded under it, and a new set starts clean. */
  recoverySetId: string;
  /** SHA-256 of each recovery code, in the order shown. */
  recoveryHashes: string[];
  createdAt: Date;
}

interface TwoFactorDocument extends Omit<TwoFactorRecord, 'memberId'> {
  _id: string;
}

const twoFactorSchema = new Schema<TwoFactorDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    secret: { type: Object, required: true },
    confirmedAt: { type: Date, default: null },
    recoverySetId: { type: String, required: true },
    recoveryHashes: { type: [String], default: [] },
    createdAt: { type: Date, required: true },
  },
  { collection: 'two_factor', versionKey: false },
);

const toRecord = ({ _id, ...rest }: TwoFactorDocument): TwoFactorRecord => ({
  memberId: _id,
  ...rest,
  confirmedAt: rest.confirmedAt ?? null,
});

export class TwoFactorRepository {
  private readonly model: Model<TwoFactorDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.TwoFactor ?? connection.model<TwoFactorDocument>('TwoFactor', twoFactorSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async find(memberId: string): Promise<TwoFactorRecord | null> {
    const doc = await this.model.findById(memberId).lean<TwoFactorDocument>();
    return doc ? toRecord(doc) : null;
  }

  /** A new setup replaces one not yet confirmed; a confirmed one is kept (false) until it is turned off. */
  async startSetup(record: TwoFactorRecord): Promise<boolean> {
    const { memberId, ...rest } = record;
    const result = await this.model
      .replaceOne({ _id: memberId, confirmedAt: null }, rest, { upsert: true })
      .catch((error: unknown) => {
        // The upsert met a confirmed setup under the same _id.
        if ((error as { code?: number }).code === 11000) return null;
        throw error;
      });
    return result !== null;
  }

  async confirm(memberId: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: memberId, confirmedAt: null }, { $set: { confirmedAt: at } });
  }

  async remove(memberId: string): Promise<void> {
    await this.model.deleteOne({ _id: memberId });
  }
}
