import type { Connection, FilterQuery, Model } from 'mongoose';
import { updatedStamp } from '@fi/shared';
import { objectIdOrNull } from '@fi/shared/database';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';
import { toItem, type FeedbackItem } from './feedbackItem';

/** Event ids kept on an item: enough for any change still waiting for the relay. */
const MAX_EVENT_IDS = 20;

/** The outcome of setting one item's status: the item as written, and what it was before the write. */
export interface StatusChange {
  item: FeedbackItem;
  previousStatus: string;
  /** False when the item already had the status: nothing was written. */
  changed: boolean;
}

/**
 * Status writes. Each item changes in one atomic single-document update by `_id` that returns the
 * document as it was, so the previous value is known exactly at the write (for events), concurrent
 * writers never lose an update, and status and updatedAt always change together.
 */
export class FeedbackStatusStore {
  private readonly model: Model<FeedbackDocument>;

  constructor(connection: Connection) {
    this.model = feedbackModel(connection);
  }

  /** The organization's items among `ids` (malformed, unknown and other organizations' ids are missing). */
  async findOwn(orgId: string, ids: string[]): Promise<Map<string, FeedbackDocument>> {
    const objectIds = ids.flatMap((id) => objectIdOrNull(id) ?? []);
    if (objectIds.length === 0) return new Map();
    // A lone `_id` equality for one item: the filter every MongoDB-compatible server answers by key.
    const filter: FilterQuery<FeedbackDocument> =
      objectIds.length === 1 ? { _id: objectIds[0] } : { _id: { $in: objectIds } };
    const docs = await this.model.find(filter).lean<FeedbackDocument[]>();
    return new Map(docs.filter((doc) => doc.orgId === orgId).map((doc) => [doc._id.toHexString(), doc]));
  }

  /**
   * Sets the status of a stored item if it still has the status it was read with; null when it was
   * deleted or changed meanwhile (read it again). `webhookEventId` names the change's webhook event in
   * the same single-document write (the outbox's proof that the change happened).
   */
  async setStatus(
    current: FeedbackDocument,
    status: string,
    now = new Date(),
    webhookEventId?: string,
  ): Promise<StatusChange | null> {
    if (current.status === status) return { item: toItem(current), previousStatus: status, changed: false };
    const eventId = webhookEventId
      ? { $push: { webhookEventIds: { $each: [webhookEventId], $slice: -MAX_EVENT_IDS } } }
      : {};
    const before = await this.model
      .findOneAndUpdate(
        { _id: current._id, status: current.status },
        { $set: { status, updatedAt: now, ...updatedStamp() }, ...eventId },
        { new: false },
      )
      .lean<FeedbackDocument>();
    if (!before) return null;
    return { item: toItem({ ...before, status, updatedAt: now }), previousStatus: before.status, changed: true };
  }
}
