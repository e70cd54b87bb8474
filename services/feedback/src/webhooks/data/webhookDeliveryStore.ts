import type { Collection, Connection } from 'mongoose';
import { type Page, type PageResult } from '@fi/shared';
import { INDEX_BUILD_TIME_LIMIT } from '@fi/shared/database';

/** Work still to do: one document per (endpoint, event) until it is delivered or given up. Kept small. */
export interface QueuedDelivery {
  _id: string;
  orgId: string;
  endpointId: string;
  eventId: string;
  type: string;
  payload: string;
  /** Order of delivery within an endpoint: event time, then event id. */
  seq: string;
  occurredAt: Date;
  attempts: number;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date;
  /** The instance sending the current attempt owns the delivery until then (epoch: nobody). */
  leaseUntil: Date;
  leaseOwner: string | null;
}

/** What the dispatcher reads to decide whether an endpoint's next delivery is due (no payload). */
export type DeliveryHead = Omit<QueuedDelivery, 'payload'>;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** What customers see in webhookDeliveries; kept for WEBHOOK_HISTORY_DAYS after it finished. */
export interface DeliveryRecord {
  _id: string;
  orgId: string;
  endpointId: string;
  eventId: string;
  type: string;
  /** The request body, kept so the delivery can be sent again on request (absent in older records). */
  payload?: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const EPOCH = new Date(0);
/** Attempts kept per delivery in the history (the newest); a 24 h schedule makes about 30. */
const MAX_ATTEMPTS_KEPT = 50;
const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

export const deliveryIdOf = (endpointId: string, eventId: string) => `${endpointId}.${eventId}`;

/** What a delivery needs of its event (a subscribed event, or a test event). */
export interface QueuedEvent {
  id: string;
  type: string;
  orgId: string;
  occurredAt: Date;
}

/** Why a delivery was not queued again: it is still queued, or too old to have its body. */
export type RedeliveryRefusal = 'pending' | 'no_payload';

const toDelivery = (doc: DeliveryRecord): WebhookDelivery => ({
  id: doc._id,
  eventId: doc.eventId,
  eventType: doc.type,
  status: doc.status,
  attempts: doc.attempts,
  nextAttemptAt: doc.nextAttemptAt,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

/**
 * The delivery queue (`webhook_queue`, pending work only, so that polling it stays cheap on servers that
 * scan whole collections) and the delivery history (`webhook_deliveries`). A delivery's history record
 * is written first and finished before its queue document is deleted, so a replayed fan-out never
 * queues a delivery that already ended.
 */
export class WebhookDeliveryStore {
  private readonly queue: Collection<QueuedDelivery>;
  private readonly history: Collection<DeliveryRecord>;

  constructor(connection: Connection) {
    this.queue = connection.collection<QueuedDelivery>('webhook_queue');
    this.history = connection.collection<DeliveryRecord>('webhook_deliveries');
  }

  async ensureIndexes(): Promise<void> {
    // An endpoint's head and the oldest delivery overall come from these on MongoDB; FerretDB scans.
    await this.queue.createIndex({ endpointId: 1, seq: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.queue.createIndex({ seq: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.history.createIndex({ endpointId: 1, createdAt: -1, _id: -1 }, INDEX_BUILD_TIME_LIMIT);
    await this.history.createIndex({ updatedAt: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /** Queues `event` for `endpointId` unless that delivery exists already (idempotent). */
  async enqueue(event: QueuedEvent, payload: string, endpointId: string, now = new Date()): Promise<void> {
    const _id = deliveryIdOf(endpointId, event.id);
    try {
      await this.history.insertOne({
        _id,
        orgId: event.orgId,
        endpointId,
        eventId: event.id,
        type: event.type,
        payload,
        status: 'pending',
        attempts: [],
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const existing = await this.history.findOne({ _id }, { projection: { status: 1 } });
      if (existing && existing.status !== 'pending') return;
    }
    try {
      await this.queueOne(_id, endpointId, event, payload, now);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** The organization's delivery `id` as stored (with its body), or null. */
  async find(orgId: string, id: string): Promise<DeliveryRecord | null> {
    const doc = await this.history.findOne({ _id: id });
    return doc && doc.orgId === orgId ? doc : null;
  }

  /**
   * Queues a finished delivery (as `find` read it) once more, as a new piece of work at the end of its
   * endpoint's queue (same event id and body, a fresh retry window); its history record turns pending
   * again and keeps the earlier attempts. A delivery still pending is not queued twice.
   */
  async redeliver(doc: DeliveryRecord, now = new Date()): Promise<WebhookDelivery | RedeliveryRefusal> {
    const { _id: id, orgId } = doc;
    if (doc.payload === undefined) return 'no_payload';
    // The status is the lock: of two concurrent redeliveries, one turns the record pending.
    const reopened = await this.history.findOneAndUpdate(
      { _id: id, status: { $ne: 'pending' } },
      { $set: { status: 'pending', nextAttemptAt: now, updatedAt: now } },
      { returnDocument: 'after' },
    );
    if (!reopened) return 'pending';
    try {
      await this.queueOne(
        id,
        doc.endpointId,
        { id: doc.eventId, orgId, type: doc.type, occurredAt: now },
        doc.payload,
        now,
      );
    } catch (error) {
      // The previous attempt's queue document is still being removed: the record goes back as it was.
      await this.history.updateOne(
        { _id: id },
        { $set: { status: doc.status, nextAttemptAt: doc.nextAttemptAt, updatedAt: doc.updatedAt } },
      );
      if (isDuplicateKey(error)) return 'pending';
      throw error;
    }
    return toDelivery(reopened);
  }

  /**
   * Endpoints with queued deliveries, at most `limit` (MongoDB answers from the `endpointId` index).
   * A `$group` rather than `distinct`, which FerretDB v1 refuses with a time limit.
   */
  async endpointsWithWork(limit: number): Promise<string[]> {
    const groups = await this.queue
      .aggregate<{ _id: string }>([{ $sort: { endpointId: 1 } }, { $group: { _id: '$endpointId' } }, { $limit: limit }])
      .toArray();
    return groups.map((group) => group._id);
  }

  /** An endpoint's oldest queued delivery: the only one that may be sent (order per endpoint). */
  head(endpointId: string): Promise<DeliveryHead | null> {
    return this.queue
      .find({ endpointId }, { projection: { payload: 0 } })
      .sort({ seq: 1 })
      .limit(1)
      .next();
  }

  /** When the oldest queued delivery's event happened; null when the queue is empty. */
  async oldestOccurredAt(): Promise<Date | null> {
    const oldest = await this.queue
      .find({}, { projection: { occurredAt: 1 } })
      .sort({ seq: 1 })
      .limit(1)
      .next();
    return oldest?.occurredAt ?? null;
  }

  depth(): Promise<number> {
    return this.queue.countDocuments({});
  }

  /** Takes the delivery for one attempt unless another instance holds it; null when it lost the race. */
  claim(delivery: DeliveryHead, owner: string, until: Date, now: Date): Promise<QueuedDelivery | null> {
    return this.queue.findOneAndUpdate(
      { _id: delivery._id, leaseUntil: { $lte: now }, attempts: delivery.attempts },
      { $set: { leaseUntil: until, leaseOwner: owner } },
      { returnDocument: 'after' },
    );
  }

  /** Gives a claimed delivery back untried (shutdown), so another instance can send it at once. */
  async release(delivery: QueuedDelivery, owner: string): Promise<void> {
    await this.queue.updateOne(
      { _id: delivery._id, leaseOwner: owner },
      { $set: { leaseUntil: EPOCH, leaseOwner: null } },
    );
  }

  /** Records a failed attempt and when the next one is due. */
  async retryLater(
    delivery: QueuedDelivery,
    owner: string,
    attempt: DeliveryAttempt,
    nextAttemptAt: Date,
  ): Promise<void> {
    await this.appendAttempt(delivery._id, attempt, { status: 'pending', nextAttemptAt });
    await this.queue.updateOne(
      { _id: delivery._id, leaseOwner: owner },
      {
        $set: {
          attempts: delivery.attempts + 1,
          firstAttemptAt: delivery.firstAttemptAt ?? attempt.at,
          nextAttemptAt,
          leaseUntil: EPOCH,
          leaseOwner: null,
        },
      },
    );
  }

  /** Ends a delivery: the history says how, then the queue forgets it. */
  async finish(
    delivery: QueuedDelivery,
    status: 'delivered' | 'failed',
    attempt: DeliveryAttempt | null,
  ): Promise<void> {
    if (attempt) await this.appendAttempt(delivery._id, attempt, { status, nextAttemptAt: null });
    else
      await this.history.updateOne(
        { _id: delivery._id },
        { $set: { status, nextAttemptAt: null, updatedAt: new Date() } },
      );
    await this.queue.deleteOne({ _id: delivery._id });
  }

  async list(endpointId: string, page: Page): Promise<PageResult<WebhookDelivery>> {
    const filter = { endpointId };
    const [docs, total] = await Promise.all([
      page.take === 0
        ? Promise.resolve([])
        : this.history
            .find(filter, { projection: { payload: 0 } })
            .sort({ createdAt: -1, _id: -1 })
            .skip(page.skip)
            .limit(page.take)
            .toArray(),
      this.history.countDocuments(filter),
    ]);
    return { items: docs.map(toDelivery), total };
  }

  /**
   * Gives up every queued delivery of an endpoint that was disabled (or vanished): the history marks
   * them failed, then the queue forgets them. Returns how many were queued.
   */
  async abandonEndpoint(endpointId: string): Promise<number> {
    await this.history.updateMany(
      { endpointId, status: 'pending' },
      { $set: { status: 'failed', nextAttemptAt: null, updatedAt: new Date() } },
    );
    return (await this.queue.deleteMany({ endpointId })).deletedCount;
  }

  /** Forgets an endpoint's deliveries, queued and past (the endpoint was removed). */
  async removeEndpoint(endpointId: string): Promise<void> {
    await this.queue.deleteMany({ endpointId });
    await this.history.deleteMany({ endpointId });
  }

  /** Deletes finished history older than `before`; run periodically, since FerretDB has no TTL index. */
  async purgeHistory(before: Date): Promise<number> {
    const result = await this.history.deleteMany({ status: { $ne: 'pending' }, updatedAt: { $lt: before } });
    return result.deletedCount;
  }

  private async queueOne(
    _id: string,
    endpointId: string,
    event: QueuedEvent,
    payload: string,
    now: Date,
  ): Promise<void> {
    await this.queue.insertOne({
      _id,
      orgId: event.orgId,
      endpointId,
      eventId: event.id,
      type: event.type,
      payload,
      seq: `${event.occurredAt.toISOString()}|${event.id}`,
      occurredAt: event.occurredAt,
      attempts: 0,
      firstAttemptAt: null,
      nextAttemptAt: now,
      leaseUntil: EPOCH,
      leaseOwner: null,
    });
  }

  private async appendAttempt(
    id: string,
    attempt: DeliveryAttempt,
    set: { status: DeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.history.updateOne(
      { _id: id },
      {
        $push: { attempts: { $each: [attempt], $slice: -MAX_ATTEMPTS_KEPT } },
        $set: { ...set, updatedAt: attempt.at },
      },
    );
  }
}
