import { Types, type Collection, type Connection as MongoConnection } from 'mongoose';
import { INDEX_BUILD_TIME_LIMIT, objectIdOrNull } from '@fi/shared/database';
import type { Connection, Kind } from '../model/connection';
import { insertNew } from './insertNew';
import type { InboxEvent, Outcome, ReceivedEvent } from '../model/inboxEvent';

interface InboxDocument {
  _id: Types.ObjectId;
  connectionId: string;
  orgId: string;
  kind: Kind;
  deliveryKey: string;
  type: string;
  /** The verified body's JSON as text: a platform's keys (`$`, dots) need not be valid field names. */
  body: string;
  outcome: Outcome;
  attempts: number;
  /** Until when a worker holds the event; a pending event past it is free to take. */
  leaseUntil: Date;
  /** The take that holds it (see take). */
  lease?: string;
  itemId: string | null;
  detail: string | null;
  receivedAt: Date;
  finishedAt: Date | null;
}

const toEvent = (doc: InboxDocument): InboxEvent => ({
  id: doc._id.toHexString(),
  connectionId: doc.connectionId,
  orgId: doc.orgId,
  kind: doc.kind,
  deliveryKey: doc.deliveryKey,
  type: doc.type,
  payload: JSON.parse(doc.body) as unknown,
  outcome: doc.outcome,
  attempts: doc.attempts,
  itemId: doc.itemId,
  detail: doc.detail,
  receivedAt: doc.receivedAt,
  finishedAt: doc.finishedAt,
});

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

/** How long finished events are kept for a connection's recent events. */
export const FINISHED_KEPT_MS = 14 * 24 * 3_600_000;

/**
 * The durable inbox (`inbox_events`): every event a platform sent is stored here before it is answered
 * 2xx, and the worker turns it into an item afterwards, so nothing is lost if a process dies after
 * answering. A platform's redelivery (same connection, same delivery key) is stored once: the unique index
 * makes that atomic. The worker takes an event with a lease; two workers taking the same one (FerretDB v1
 * does not make the conditional update atomic) only send the feedback service the same `externalId` twice,
 * which makes one item.
 */
export class InboxStore {
  private readonly collection: Collection<InboxDocument>;

  constructor(connection: MongoConnection) {
    this.collection = connection.collection<InboxDocument>('inbox_events');
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([
      this.collection.createIndex({ connectionId: 1, deliveryKey: 1 }, { unique: true, ...INDEX_BUILD_TIME_LIMIT }),
      this.collection.createIndex({ outcome: 1, leaseUntil: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT),
      this.collection.createIndex({ connectionId: 1, _id: -1 }, INDEX_BUILD_TIME_LIMIT),
      this.collection.createIndex({ finishedAt: 1 }, INDEX_BUILD_TIME_LIMIT),
    ]);
  }

  /** Stores the event unless the connection has it already; `stored` false for a redelivery. */
  async store(connection: Connection, event: ReceivedEvent, now = new Date()): Promise<{ stored: boolean }> {
    try {
      await this.collection.insertOne(this.document(connection, event, now));
      return { stored: true };
    } catch (error) {
      if (isDuplicateKey(error)) return { stored: false };
      throw error;
    }
  }

  /**
   * Stores a page of events at once (a pull's page), each unless the connection has it already; how many
   * were new. Resolves only when every event is stored (or was already): the pull saves its cursor after.
   */
  async storeMany(
    connection: Pick<Connection, 'id' | 'orgId' | 'kind'>,
    events: ReceivedEvent[],
    now = new Date(),
  ): Promise<{ stored: number }> {
    const stored = await insertNew(
      this.collection,
      events.map((event) => this.document(connection, event, now)),
    );
    return { stored };
  }

  private document(
    connection: Pick<Connection, 'id' | 'orgId' | 'kind'>,
    event: ReceivedEvent,
    now: Date,
  ): InboxDocument {
    return {
      _id: new Types.ObjectId(),
      connectionId: connection.id,
      orgId: connection.orgId,
      kind: connection.kind,
      deliveryKey: event.deliveryKey,
      type: event.type,
      body: JSON.stringify(event.payload),
      outcome: 'pending',
      attempts: 0,
      leaseUntil: now,
      itemId: null,
      detail: null,
      receivedAt: now,
      finishedAt: null,
    };
  }

  /**
   * Up to `limit` pending events free to take, now held for `leaseMs` under one lease of this call: a read
   * of candidates, one update that leases those still free, and a read of what this lease holds. On MongoDB
   * each event's lease is an atomic single-document update, so two workers never both hold one; FerretDB v1
   * may let both, which only sends the feedback service the same `externalId` twice (one item). Unsorted: a
   * sort made FerretDB v1 read and order every pending event on each take (3 s with 10,000 pending).
   */
  async take(leaseMs: number, limit: number, now = new Date()): Promise<InboxEvent[]> {
    const free = { outcome: 'pending' as const, leaseUntil: { $lte: now } };
    const candidates = await this.collection.find(free, { projection: { _id: 1 }, limit }).toArray();
    if (candidates.length === 0) return [];
    const lease = new Types.ObjectId().toHexString();
    const ids = candidates.map((doc) => doc._id);
    await this.collection.updateMany(
      { _id: { $in: ids }, ...free },
      { $set: { leaseUntil: new Date(now.getTime() + leaseMs), lease }, $inc: { attempts: 1 } },
    );
    const held = await this.collection.find({ _id: { $in: ids }, lease }).toArray();
    return held.map(toEvent);
  }

  /** Each event's outcome, in one round trip. */
  async finish(results: Array<{ id: string; outcome: Exclude<Outcome, 'pending'>; itemId?: string; detail?: string }>) {
    if (results.length === 0) return;
    const now = new Date();
    await this.collection.bulkWrite(
      results.map(({ id, outcome, itemId, detail }) => ({
        updateOne: {
          filter: { _id: new Types.ObjectId(id) },
          update: {
            $set: { outcome, itemId: itemId ?? null, detail: detail ?? null, finishedAt: now, leaseUntil: now },
          },
        },
      })),
      { ordered: false },
    );
  }

  /** Leaves the event pending, to be taken again after `delayMs` (a service was unavailable). */
  async retryLater(id: string, delayMs: number, detail: string): Promise<void> {
    await this.collection.updateOne(
      { _id: new Types.ObjectId(id), outcome: 'pending' },
      { $set: { leaseUntil: new Date(Date.now() + delayMs), detail } },
    );
  }

  /** A connection's latest events, newest first, for its page. */
  async recent(orgId: string, connectionId: string, take: number): Promise<InboxEvent[]> {
    const docs = await this.collection
      .find({ connectionId, orgId })
      .sort({ _id: -1 })
      .limit(Math.max(0, Math.min(take, 100)))
      .toArray();
    return docs.map(toEvent);
  }

  async get(id: string): Promise<InboxEvent | null> {
    const _id = objectIdOrNull(id);
    const doc = _id ? await this.collection.findOne({ _id }) : null;
    return doc ? toEvent(doc) : null;
  }

  /** Forgets a removed connection's events (their payloads hold what its platform sent). */
  async removeConnection(connectionId: string): Promise<void> {
    await this.collection.deleteMany({ connectionId });
  }

  /** Removes finished events past FINISHED_KEPT_MS; run periodically, since FerretDB has no TTL index. */
  async purgeFinished(now = new Date()): Promise<number> {
    const result = await this.collection.deleteMany({
      outcome: { $ne: 'pending' },
      finishedAt: { $lt: new Date(now.getTime() - FINISHED_KEPT_MS) },
    });
    return result.deletedCount;
  }
}
