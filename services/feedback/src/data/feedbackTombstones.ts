import { Types, type Collection, type Connection, type mongo } from 'mongoose';
import { CHANGES_KEPT_MS, EXPORT_READ_OPTIONS, INDEX_BUILD_TIME_LIMIT, type ChangePosition } from '@fi/shared';
import type { FeedbackItem } from './feedbackItem';
import type { FeedbackDocument } from './feedbackModel';

type TombstoneDocument = Omit<FeedbackItem, 'id'> & { _id: Types.ObjectId; removedAt: Date };

/**
 * Feedback items as they were just before their removal, written before the item goes (with the
 * `feedback.deleted` event) and kept CHANGES_KEPT_MS: the changes feed lists them as deletions, and an
 * export that had not yet read the item's page still writes it. Stored with the item's own id and field
 * names, so the list's filters select them as they select live items.
 */
export class FeedbackTombstones {
  private readonly collection: Collection<TombstoneDocument>;

  constructor(connection: Connection) {
    this.collection = connection.collection<TombstoneDocument>('feedback_tombstones');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ orgId: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ orgId: 1, removedAt: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * Stamped anew by every attempt: a removal that failed and is retried later is a change of that later
   * time (a reader may have passed the first stamp while the item still existed).
   */
  async record(item: FeedbackItem): Promise<void> {
    const { id, ...fields } = item;
    await this.collection.updateOne({ _id: new Types.ObjectId(id) }, { $set: { ...fields, removedAt: new Date() } }, { upsert: true });
  }

  /** Removed items that `selection` (a feedback filter) matches, removed at or after `since`. */
  async removedSince(selection: mongo.Filter<mongo.Document>, since: Date): Promise<FeedbackDocument[]> {
    const docs = await this.collection.find({ ...selection, removedAt: { $gte: since } }, { ...EXPORT_READ_OPTIONS, sort: { _id: 1 } }).toArray();
    return docs as unknown as FeedbackDocument[];
  }

  /** The organization's removals strictly after `from` and before `before`, in (removedAt, _id) order. */
  async removedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<Array<{ id: string; at: Date }>> {
    const docs = await this.collection
      .find(
        { orgId, removedAt: { $gte: from.at, $lt: before }, $or: [{ removedAt: { $gt: from.at } }, { _id: { $gt: new Types.ObjectId(from.id) } }] },
        { projection: { _id: 1, removedAt: 1 }, sort: { removedAt: 1, _id: 1 }, limit },
      )
      .toArray();
    return docs.map((doc) => ({ id: doc._id.toHexString(), at: doc.removedAt }));
  }

  async purge(now = Date.now()): Promise<void> {
    await this.collection.deleteMany({ removedAt: { $lt: new Date(now - CHANGES_KEPT_MS) } });
  }
}
