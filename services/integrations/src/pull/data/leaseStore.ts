import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

interface LeaseDocument {
  /** The connection's id: one lease per connection. */
  _id: string;
  /** Who holds it: only the holder renews or gives it back. */
  holder: string;
  /** A holder that died (kill -9) or hangs loses its lease then. */
  expiresAt: Date;
}

const leaseSchema = new Schema<LeaseDocument>(
  {
    _id: { type: String, required: true },
    holder: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'pull_leases', versionKey: false },
);

/**
 * One worker at a time syncs a connection: the lease is taken by inserting a document with the
 * connection's id, which exactly one caller can do, on MongoDB and on the embedded FerretDB alike
 * (FerretDB v1 does not apply concurrent conditional updates atomically, but refuses a second insert
 * of an `_id`). The holder renews it after each page; a lease not renewed in time (its worker was killed)
 * is deleted by the next taker and taken again.
 */
export class LeaseStore {
  private readonly model: Model<LeaseDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.PullLease ?? connection.model<LeaseDocument>('PullLease', leaseSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /** The holder's token when this caller now holds the connection's lease for `ttlMs`; null when another does. */
  async take(connectionId: string, now: Date, ttlMs: number): Promise<string | null> {
    await this.model.deleteOne({ _id: connectionId, expiresAt: { $lte: now } });
    const holder = randomBytes(12).toString('hex');
    try {
      await this.model.create({ _id: connectionId, holder, expiresAt: new Date(now.getTime() + ttlMs) });
      return holder;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
  }

  /** Extends the lease; false when it is no longer this holder's (it expired and was taken). */
  async renew(connectionId: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    const { matchedCount } = await this.model.updateOne(
      { _id: connectionId, holder, expiresAt: { $gt: now } },
      { $set: { expiresAt: new Date(now.getTime() + ttlMs) } },
    );
    return matchedCount === 1;
  }

  async release(connectionId: string, holder: string): Promise<void> {
    await this.model.deleteOne({ _id: connectionId, holder });
  }
}
