import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

interface UseDocument {
  _id: string;
  /** Dropped then: past it the thing used can no longer be presented anyway. */
  expiresAt: Date;
}

const useSchema = new Schema<UseDocument>(
  {
    _id: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'two_factor_uses', versionKey: false },
);

/**
 * Single use of what proves the second factor (a TOTP code's time step, a recovery code, a sign-in
 * challenge), recorded by inserting its name: exactly one caller can, on MongoDB and on the embedded
 * FerretDB alike (which does not apply concurrent conditional updates atomically but refuses a second
 * insert of an `_id`), so two requests presenting the same code at the same instant cannot both pass.
 */
export class TwoFactorUseRepository {
  private readonly model: Model<UseDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.TwoFactorUse ?? connection.model<UseDocument>('TwoFactorUse', useSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /** True for the first use of `name`, false when it was used before. */
  async firstUse(name: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.model.create({ _id: name, expiresAt });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  async used(name: string): Promise<boolean> {
    return (await this.model.countDocuments({ _id: name })) > 0;
  }

  /** How many names starting with `prefix` were used (recovery codes of one set). */
  count(prefix: string): Promise<number> {
    return this.model.countDocuments({ _id: { $gte: prefix, $lt: `${prefix}\uffff` } });
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: now } });
  }
}
