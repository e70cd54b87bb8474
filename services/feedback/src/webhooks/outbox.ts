import type { Collection, Connection } from 'mongoose';
import { INDEX_BUILD_TIME_LIMIT } from '@fi/shared';
import type { Change, ChangeType } from '../domain/changeEvents';
import type { CountDelta } from '../domain/countDelta';
import type { WebhookEvent } from './events';
import { IDEMPOTENCY_WINDOW_MS } from '../data/idempotencyStore';

/**
 * A change written before it is applied ("intent"). The change itself records the intent's id on the
 * feedback document in the same single-document write (`webhookEventIds`), which is atomic on every
 * MongoDB-compatible server without transactions; a removal is its own proof (the document is gone),
 * an import batch is proved by its last item. An intent whose change is seen is published to webhooks
 * (when an endpoint wanted it) and counted (when its writer did not live to count it); one whose
 * change never happened is dropped.
 */
interface OutboxDocument {
  _id: string;
  orgId: string;
  itemId: string;
  type: ChangeType;
  occurredAt: Date;
  data?: WebhookEvent['data'];
  /** Whether an endpoint of the organization wanted the event when it was recorded (absent: recorded before counts, true). */
  deliver?: boolean;
  delta?: CountDelta;
  itemIds?: string[];
  /** Set when the change is known to have happened although its document may be gone. */
  ready?: boolean;
  enqueuedAt?: Date;
  countedAt?: Date;
  /**
   * Set when the intent is closed. Changes whose id derives from the item (creation, removal) keep
   * their closed intent as long as an idempotent replay may come, so a replay recording the same id
   * again finds it closed and never counts it twice.
   */
  doneAt?: Date | null;
}

/** What the relay needs to know of an item to tell whether a change of it happened. */
export interface ChangeEvidence {
  /** The ids of the changes its last writes named (see FeedbackDocument.webhookEventIds). */
  webhookEventIds?: string[];
}

/** Asked for the item a change is about; null when the item does not exist (any more). */
export interface ChangeEvidenceSource {
  changeEvidence(itemId: string): Promise<ChangeEvidence | null>;
  /** The delta of the items among `itemIds` that exist (what a batch that died midway wrote). */
  deltaOfExisting(orgId: string, itemIds: string[]): Promise<CountDelta>;
}

export type Verdict = 'publish' | 'wait' | 'drop';


/** `counted`: nothing is left to count (counted, or recorded before counts were kept); `ready`: known to have happened. */
export type RecordedChange = Change & { ready: boolean; deliver: boolean; enqueued: boolean; counted: boolean };

const keptAfterClose = (type: ChangeType) => type === 'feedback.created' || type === 'feedback.deleted';

export class Outbox {
  private readonly collection: Collection<OutboxDocument>;

  constructor(
    connection: Connection,
    private readonly items: ChangeEvidenceSource,
    /** How long a change may wait for its write (see webhookIntentGraceMs). */
    private readonly graceMs: number,
  ) {
    this.collection = connection.collection<OutboxDocument>('webhook_outbox');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ doneAt: 1, occurredAt: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /** Writes the change durably before it is applied; a repeat of the same id is a no-op. */
  async record(change: Change, deliver: boolean): Promise<void> {
    try {
      await this.collection.insertOne({
        _id: change.id,
        orgId: change.orgId,
        itemId: change.itemId,
        type: change.type,
        occurredAt: change.occurredAt,
        ...(change.data ? { data: change.data } : {}),
        deliver,
        delta: change.delta,
        ...(change.itemIds ? { itemIds: change.itemIds } : {}),
        doneAt: null,
      });
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
  }

  /**
   * The item is about to be removed: its applied changes will have no document left to prove them,
   * so they are marked ready first.
   */
  async markApplied(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.collection.updateMany({ _id: { $in: ids } }, { $set: { ready: true } });
  }

  async markEnqueued(id: string): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { enqueuedAt: new Date() } });
  }

  async markCounted(id: string, delta?: CountDelta): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { countedAt: new Date(), ready: true, ...(delta ? { delta } : {}) } });
  }

  async get(id: string): Promise<RecordedChange | null> {
    const doc = await this.collection.findOne({ _id: id });
    return doc ? toChange(doc) : null;
  }

  /** The oldest open changes (bounded). */
  async pending(limit: number): Promise<RecordedChange[]> {
    const docs = await this.collection.find({ doneAt: null }).sort({ occurredAt: 1, _id: 1 }).limit(limit).toArray();
    return docs.map(toChange);
  }

  depth(): Promise<number> {
    return this.collection.countDocuments({ doneAt: null });
  }

  /** Whether `change` happened (publish), may still happen (wait) or never will (drop). */
  async verdict(change: RecordedChange, now = new Date()): Promise<Verdict> {
    if (change.ready) return 'publish';
    const doc = await this.items.changeEvidence(change.itemId);
    const applied =
      change.type === 'feedback.deleted' ? doc === null : change.type === 'feedback.imported' ? doc !== null : (doc?.webhookEventIds ?? []).includes(change.id);
    if (applied) return 'publish';
    // The writer may still be between its intent and its change; past the grace period (far longer
    // than any write may take) the change failed, and the event must not be sent. An import batch
    // that died midway is counted for what it wrote.
    if (!this.pastGrace(change, now)) return 'wait';
    if (change.type === 'feedback.imported' && change.itemIds) {
      const written = await this.items.deltaOfExisting(change.orgId, change.itemIds);
      if (written.length > 0) {
        change.delta = written;
        return 'publish';
      }
    }
    return 'drop';
  }

  /** Whether the change's writer is certainly done with it (written and counted, or given up). */
  pastGrace(change: Pick<Change, 'occurredAt'>, now = new Date()): boolean {
    return now.getTime() - change.occurredAt.getTime() > this.graceMs;
  }

  /** Closes the change: removed, or kept closed for a while when a replay could name it again. */
  async close(change: Pick<RecordedChange, 'id' | 'type'>, now = new Date()): Promise<void> {
    if (keptAfterClose(change.type)) await this.collection.updateOne({ _id: change.id }, { $set: { doneAt: now } });
    else await this.collection.deleteOne({ _id: change.id });
  }

  async remove(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  /** Closed changes past the idempotency window (no replay can name them any more). */
  async purgeClosed(now = new Date()): Promise<number> {
    const result = await this.collection.deleteMany({ doneAt: { $lt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } });
    return result.deletedCount;
  }
}

function toChange(doc: OutboxDocument): RecordedChange {
  return {
    id: doc._id,
    orgId: doc.orgId,
    itemId: doc.itemId,
    type: doc.type,
    occurredAt: doc.occurredAt,
    ...(doc.data ? { data: doc.data } : {}),
    delta: doc.delta ?? [],
    ...(doc.itemIds ? { itemIds: doc.itemIds } : {}),
    // Counted by its writer means written (markCounted sets ready too).
    ready: doc.ready === true || doc.countedAt !== undefined,
    deliver: doc.deliver !== false,
    enqueued: doc.enqueuedAt !== undefined,
    counted: doc.countedAt !== undefined || doc.delta === undefined,
  };
}
