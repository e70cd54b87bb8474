import { Types, type Collection, type Connection, type mongo } from 'mongoose';
import { EXPORT_READ_OPTIONS, INDEX_BUILD_TIME_LIMIT } from '@fi/shared';
import type { FeedbackItem } from './feedbackItem';
import type { FeedbackDocument } from './feedbackModel';

type RemovedFeedbackDocument = Omit<FeedbackItem, 'id'> & { _id: Types.ObjectId; removedAt: Date };

/** Long past any export's run: a removal is only needed by exports running when it happened. */
export const REMOVED_FEEDBACK_KEPT_MS = 7 * 86_400_000;

/**
 * Feedback items as they were just before their removal, written before the item goes (with the
 * `feedback.deleted` event): an export that had not yet read the item's page still writes it. Stored with
 * the item's own id and field names, so the list's filters select them as they select live items.
 */
export class RemovedFeedbackLog {
  private readonly collection: Collection<RemovedFeedbackDocument>;

  constructor(connection: Connection) {
    this.collection = connection.collection<RemovedFeedbackDocument>('export_removed_feedback');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ orgId: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /** The first record of an item's removal stands (a retried removal records the same item again). */
  async record(item: FeedbackItem): Promise<void> {
    const { id, ...fields } = item;
    await this.collection.updateOne({ _id: new Types.ObjectId(id) }, { $setOnInsert: { ...fields, removedAt: new Date() } }, { upsert: true });
  }

  /** Removed items that `selection` (a feedback filter) matches, removed at or after `since`. */
  async removedSince(selection: mongo.Filter<mongo.Document>, since: Date): Promise<FeedbackDocument[]> {
    const docs = await this.collection.find({ ...selection, removedAt: { $gte: since } }, { ...EXPORT_READ_OPTIONS, sort: { _id: 1 } }).toArray();
    return docs as unknown as FeedbackDocument[];
  }

  async purge(now = Date.now()): Promise<void> {
    await this.collection.deleteMany({ removedAt: { $lt: new Date(now - REMOVED_FEEDBACK_KEPT_MS) } });
  }
}
