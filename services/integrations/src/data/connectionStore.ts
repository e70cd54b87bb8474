import { Types, type Collection, type Connection as MongoConnection } from 'mongoose';
import type { SealedSecret } from '@fi/shared';
import { INDEX_BUILD_TIME_LIMIT, objectIdOrNull } from '@fi/shared/database';
import type { Connection, ConnectionStatus, Kind } from '../model/connection';
import { insertNew } from './insertNew';

interface ConnectionDocument {
  _id: Types.ObjectId;
  orgId: string;
  kind: Kind;
  name: string;
  status: ConnectionStatus;
  /** SHA-256 of the token in the connection's URL or address: the token itself is shown once, never stored. */
  tokenHash: string;
  settings: Record<string, unknown>;
  credentials: SealedSecret | null;
  cursors: Record<string, string>;
  itemsReceived: number;
  lastEventAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  createdAt: Date;
}

export type NewConnection = Omit<
  Connection,
  'cursors' | 'itemsReceived' | 'lastEventAt' | 'lastError' | 'lastErrorAt'
> & {
  tokenHash: string;
};

const toConnection = (doc: ConnectionDocument, counted = 0): Connection => ({
  id: doc._id.toHexString(),
  orgId: doc.orgId,
  kind: doc.kind,
  name: doc.name,
  status: doc.status,
  settings: doc.settings ?? {},
  credentials: doc.credentials ?? null,
  cursors: doc.cursors ?? {},
  // Counted apart since the counters moved to connection_counters; what an older version counted here stays.
  itemsReceived: (doc.itemsReceived ?? 0) + counted,
  lastEventAt: doc.lastEventAt ?? null,
  lastError: doc.lastError ?? null,
  lastErrorAt: doc.lastErrorAt ?? null,
  createdAt: doc.createdAt,
});

/** The longest last error kept: enough for a refusal's reason, never a whole payload. */
const MAX_ERROR_LENGTH = 500;

/**
 * Connections (`connections`): a few per organization. Each write is one single-document write. The
 * items counter is a document of its own (`connection_counters`), written only by the worker's `$inc`: the
 * receiver, the pulls and the API write the connection's document at any time, and a stock FerretDB v1
 * writes a whole document back without isolation (the embedded build no longer does), so a counter kept in
 * it lost increments beside those writes (measured: 10 counted of 12 items).
 */
export class ConnectionStore {
  private readonly collection: Collection<ConnectionDocument>;
  /** One slot per connection and item counted (`<connection id>:<item id>`). */
  private readonly items: Collection<{ _id: string; connectionId: string }>;
  /** Items made per connection (`_id`: the connection's id). */
  private readonly counters: Collection<{ _id: string; itemsReceived: number }>;

  constructor(connection: MongoConnection) {
    this.collection = connection.collection<ConnectionDocument>('connections');
    this.items = connection.collection<{ _id: string; connectionId: string }>('connection_items');
    this.counters = connection.collection<{ _id: string; itemsReceived: number }>('connection_counters');
  }

  /** The connections with their counters (one read for all of them). */
  private async counted(docs: ConnectionDocument[]): Promise<Connection[]> {
    if (docs.length === 0) return [];
    const ids = docs.map((doc) => doc._id.toHexString());
    const counters = await this.counters.find({ _id: { $in: ids } }).toArray();
    const countOf = new Map(counters.map((counter) => [counter._id, counter.itemsReceived]));
    return docs.map((doc) => toConnection(doc, countOf.get(doc._id.toHexString()) ?? 0));
  }

  private async countedOne(doc: ConnectionDocument | null): Promise<Connection | null> {
    return doc ? (await this.counted([doc]))[0] : null;
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([
      this.collection.createIndex({ tokenHash: 1 }, { unique: true, ...INDEX_BUILD_TIME_LIMIT }),
      this.collection.createIndex({ orgId: 1, createdAt: 1 }, INDEX_BUILD_TIME_LIMIT),
      this.collection.createIndex({ kind: 1, status: 1 }, INDEX_BUILD_TIME_LIMIT),
      this.items.createIndex({ connectionId: 1 }, INDEX_BUILD_TIME_LIMIT),
    ]);
  }

  async insert(connection: NewConnection): Promise<Connection> {
    const { id, tokenHash, ...rest } = connection;
    const doc: ConnectionDocument = {
      _id: new Types.ObjectId(id),
      ...rest,
      tokenHash,
      cursors: {},
      itemsReceived: 0,
      lastEventAt: null,
      lastError: null,
      lastErrorAt: null,
    };
    await this.collection.insertOne(doc);
    return toConnection(doc);
  }

  /** The connection whose URL or address carries the token of this hash, whatever its organization. */
  async findByTokenHash(tokenHash: string): Promise<Connection | null> {
    return this.countedOne(await this.collection.findOne({ tokenHash }));
  }

  async findById(id: string): Promise<Connection | null> {
    const _id = objectIdOrNull(id);
    return this.countedOne(_id ? await this.collection.findOne({ _id }) : null);
  }

  async get(orgId: string, id: string): Promise<Connection | null> {
    const _id = objectIdOrNull(id);
    return this.countedOne(_id ? await this.collection.findOne({ _id, orgId }) : null);
  }

  /** The organization's connections, oldest first. */
  async list(orgId: string): Promise<Connection[]> {
    return this.counted(await this.collection.find({ orgId }).sort({ createdAt: 1, _id: 1 }).limit(1_000).toArray());
  }

  /** Active connections of a kind, for the pull workers. */
  async listActive(kind: Kind): Promise<Connection[]> {
    const docs = await this.collection
      .find({ kind, status: { $ne: 'paused' } })
      .limit(10_000)
      .toArray();
    return this.counted(docs);
  }

  async setStatus(orgId: string, id: string, status: ConnectionStatus): Promise<Connection | null> {
    return this.update({ orgId, id }, { $set: { status } });
  }

  async setCredentials(orgId: string, id: string, credentials: SealedSecret): Promise<Connection | null> {
    return this.update({ orgId, id }, { $set: { credentials } });
  }

  /** Deletes the connection with its sealed credentials; false when it was not the organization's. */
  async remove(orgId: string, id: string): Promise<boolean> {
    const _id = objectIdOrNull(id);
    if (!_id) return false;
    if ((await this.collection.deleteOne({ _id, orgId })).deletedCount !== 1) return false;
    await Promise.all([this.items.deleteMany({ connectionId: id }), this.counters.deleteOne({ _id: id })]);
    return true;
  }

  /**
   * Items were made of events: each counted once (a unique slot per connection and item, so an item
   * returned again for a retry or a redelivery is not counted twice), and a failing connection is working
   * again. The counter is one `$inc`, atomic on MongoDB and on the embedded engine alike, so several workers
   * count exactly.
   */
  async recordItems(id: string, itemIds: string[], at: Date): Promise<void> {
    const _id = objectIdOrNull(id);
    if (!_id || itemIds.length === 0) return;
    const slots = [...new Set(itemIds)].map((itemId) => ({ _id: `${id}:${itemId}`, connectionId: id }));
    const fresh = await insertNew(this.items, slots);
    if (fresh > 0) await this.counters.updateOne({ _id: id }, { $inc: { itemsReceived: fresh } }, { upsert: true });
    await this.collection.updateOne({ _id }, { $max: { lastEventAt: at } });
    await this.collection.updateOne({ _id, status: 'failing' }, { $set: { status: 'active' } });
  }

  /** The platform answered again (a pull caught up): a failing connection is working again. */
  async recordWorking(id: string): Promise<void> {
    const _id = objectIdOrNull(id);
    if (_id) await this.collection.updateOne({ _id, status: 'failing' }, { $set: { status: 'active' } });
  }

  /** An event arrived (whatever becomes of it). */
  async recordEvent(id: string, at: Date): Promise<void> {
    const _id = objectIdOrNull(id);
    if (_id) await this.collection.updateOne({ _id }, { $max: { lastEventAt: at } });
  }

  /** What went wrong last, with its reason (an item the feedback service refused, a platform's refusal). */
  async recordError(id: string, message: string, at: Date, options: { failing?: boolean } = {}): Promise<void> {
    const _id = objectIdOrNull(id);
    if (!_id) return;
    const lastError = message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
    await this.collection.updateOne({ _id }, { $set: { lastError, lastErrorAt: at } });
    if (options.failing) await this.collection.updateOne({ _id, status: 'active' }, { $set: { status: 'failing' } });
  }

  /** Where the pull stream `stream` continues; saved after each page. */
  async saveCursor(id: string, stream: string, cursor: string): Promise<void> {
    const _id = objectIdOrNull(id);
    if (_id) await this.collection.updateOne({ _id }, { $set: { [`cursors.${stream}`]: cursor } });
  }

  private async update(
    { orgId, id }: { orgId: string; id: string },
    change: Record<string, unknown>,
  ): Promise<Connection | null> {
    const _id = objectIdOrNull(id);
    if (!_id) return null;
    return this.countedOne(await this.collection.findOneAndUpdate({ _id, orgId }, change, { returnDocument: 'after' }));
  }
}
