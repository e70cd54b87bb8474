import { Types, type Collection, type Connection } from 'mongoose';
import { INDEX_BUILD_TIME_LIMIT } from '@fi/shared';
import type { EventType, WebhookEvent } from './events';

/**
 * An event written before its change ("intent"). The change itself records the event's id on the
 * feedback document in the same single-document write (`webhookEventIds`), which is atomic on every
 * MongoDB-compatible server without transactions; a removal is its own proof (the document is gone).
 * An intent is published once the change is seen, and dropped when the change never happened.
 */
interface OutboxDocument {
  _id: string;
  orgId: string;
  itemId: string;
  type: EventType;
  occurredAt: Date;
  data: WebhookEvent['data'];
  /** Set when the change is known to have happened although its document may be gone. */
  ready?: boolean;
}

/** The feedback document as far as the relay reads it. */
export interface ChangeEvidence {
  webhookEventIds?: string[];
}

export type Verdict = 'publish' | 'wait' | 'drop';

/** Events whose change is applied are always published; others are dropped once this old. */
export const INTENT_GRACE_MS = 60_000;

export class Outbox {
  private readonly collection: Collection<OutboxDocument>;
  private readonly items: Collection<ChangeEvidence & { _id: Types.ObjectId }>;

  constructor(connection: Connection) {
    this.collection = connection.collection<OutboxDocument>('webhook_outbox');
    this.items = connection.collection('feedback_items');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ occurredAt: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * Writes the event durably before its change; a repeat of the same event id is a no-op. `ready`: the
   * change has happened already (an export that ended), so the event is published without a proof.
   */
  async record(event: WebhookEvent, ready = false): Promise<void> {
    try {
      await this.collection.insertOne(
        { _id: event.id, orgId: event.orgId, itemId: event.itemId, type: event.type, occurredAt: event.occurredAt, data: event.data, ...(ready ? { ready } : {}) },
      );
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
  }

  /**
   * The item is about to be removed: its applied changes will have no document left to prove them,
   * so they are marked ready first.
   */
  async markApplied(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.collection.updateMany({ _id: { $in: eventIds } }, { $set: { ready: true } });
  }

  async get(id: string): Promise<WebhookEvent & { ready: boolean } | null> {
    const doc = await this.collection.findOne({ _id: id });
    return doc ? toEvent(doc) : null;
  }

  /** The oldest unpublished events (bounded). */
  async pending(limit: number): Promise<Array<WebhookEvent & { ready: boolean }>> {
    const docs = await this.collection.find({}).sort({ occurredAt: 1, _id: 1 }).limit(limit).toArray();
    return docs.map(toEvent);
  }

  depth(): Promise<number> {
    return this.collection.countDocuments({});
  }

  /** Whether the change of `event` happened (publish), may still happen (wait) or never will (drop). */
  async verdict(event: WebhookEvent & { ready: boolean }, now = new Date()): Promise<Verdict> {
    if (event.ready) return 'publish';
    const itemId = Types.ObjectId.isValid(event.itemId) ? new Types.ObjectId(event.itemId) : null;
    const doc = itemId ? await this.items.findOne({ _id: itemId }, { projection: { webhookEventIds: 1 } }) : null;
    const applied = event.type === 'feedback.deleted' ? doc === null : (doc?.webhookEventIds ?? []).includes(event.id);
    if (applied) return 'publish';
    // The writer may still be between its intent and its change; past the grace period (far longer
    // than any write may take) the change failed, and the event must not be sent.
    return now.getTime() - event.occurredAt.getTime() > INTENT_GRACE_MS ? 'drop' : 'wait';
  }

  async remove(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }
}

function toEvent(doc: OutboxDocument): WebhookEvent & { ready: boolean } {
  return { id: doc._id, orgId: doc.orgId, itemId: doc.itemId, type: doc.type, occurredAt: doc.occurredAt, data: doc.data, ready: doc.ready === true };
}
