import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

/** Where a pull connection's sync stands. */
export interface SyncState {
  connectionId: string;
  orgId: string;
  /** Where the next page starts; null before the first page is stored (the first sync backfills). */
  cursor: string | null;
  /** Records stored from pages so far. */
  records: number;
  pages: number;
  /** No call to the platform before this (its Retry-After, or a back-off after a failure). */
  notBefore: Date | null;
  /** When the last sync reached the end of the stream. */
  caughtUpAt: Date | null;
  lastError: string | null;
}

interface SyncStateDocument extends Omit<SyncState, 'connectionId'> {
  _id: string;
}

const syncStateSchema = new Schema<SyncStateDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true, index: true },
    cursor: { type: String, default: null },
    records: { type: Number, default: 0 },
    pages: { type: Number, default: 0 },
    notBefore: { type: Date, default: null },
    caughtUpAt: { type: Date, default: null },
    lastError: { type: String, default: null },
  },
  { collection: 'pull_states', versionKey: false },
);

const plain = (doc: SyncStateDocument): SyncState => {
  const { _id, ...rest } = doc;
  return { connectionId: _id, ...rest };
};

/**
 * The cursor of each pull connection, saved after every page once its records are stored: a worker
 * killed at any moment leaves a cursor at or before what is stored, so the next one fetches again at most
 * one page (whose records are made once: they are keyed by the platform's ids) and loses nothing.
 * Written only by the lease's holder.
 */
export class SyncStateStore {
  private readonly model: Model<SyncStateDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.PullState ?? connection.model<SyncStateDocument>('PullState', syncStateSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async get(connectionId: string, orgId: string): Promise<SyncState> {
    const doc = await this.model.findById(connectionId).lean<SyncStateDocument>();
    return doc
      ? plain(doc)
      : { connectionId, orgId, cursor: null, records: 0, pages: 0, notBefore: null, caughtUpAt: null, lastError: null };
  }

  async pageStored(connectionId: string, orgId: string, cursor: string, records: number): Promise<void> {
    await this.model.updateOne(
      { _id: connectionId },
      { $set: { orgId, cursor, notBefore: null, lastError: null }, $inc: { records, pages: 1 } },
      { upsert: true },
    );
  }

  async caughtUp(connectionId: string, orgId: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: connectionId }, { $set: { orgId, caughtUpAt: at } }, { upsert: true });
  }

  /** The platform asked to wait, or a call failed: no call before `notBefore`; `error` is shown to the organization. */
  async deferred(connectionId: string, orgId: string, notBefore: Date, error: string | null): Promise<void> {
    await this.model.updateOne(
      { _id: connectionId },
      { $set: { orgId, notBefore, ...(error ? { lastError: error } : {}) } },
      { upsert: true },
    );
  }

  /** A removed connection's state goes with it. */
  async remove(connectionId: string): Promise<void> {
    await this.model.deleteOne({ _id: connectionId });
  }
}
