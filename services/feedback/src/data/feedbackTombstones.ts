import { Types, type Collection, type Connection, type mongo } from 'mongoose';
import { CHANGES_KEPT_MS, EXPORT_READ_OPTIONS, INDEX_BUILD_TIME_LIMIT, objectIdOrNull, type ChangePosition } from '@fi/shared';
import type { FeedbackItem } from './feedbackItem';
import type { FeedbackDocument } from './feedbackModel';

/** Deleted for good (kept CHANGES_KEPT_MS), or merged into another item (kept until unmerged). */
export type TombstoneKind = 'deleted' | 'merged';

type TombstoneDocument = Omit<FeedbackItem, 'id'> & { _id: Types.ObjectId; removedAt: Date; kind?: TombstoneKind; mergedInto?: string };

/** A merged duplicate as the API reads it: the item as it was, and the item it was merged into. */
export type MergedItem = FeedbackItem & { duplicateOf: string };

const mergedItemOf = ({ _id, removedAt: _removedAt, kind: _kind, mergedInto, ...fields }: TombstoneDocument): MergedItem => ({
  id: _id.toHexString(),
  ...fields,
  duplicateOf: mergedInto as string,
});

/**
 * Feedback items as they were just before they left the live items, written before the item goes: by a
 * removal (with the `feedback.deleted` event, kept CHANGES_KEPT_MS) or a merge (kept whole until
 * unmerged). The changes feed lists them as deletions or merges, and an export that had not yet read the
 * item's page still writes it. Stored with the item's own id and field names, so the list's filters
 * select them as they select live items. A tombstone whose item is live again (its removal or merge
 * failed after it was written, or an unmerge did not finish) stands for nothing.
 */
export class FeedbackTombstones {
  private readonly collection: Collection<TombstoneDocument>;

  constructor(connection: Connection) {
    this.collection = connection.collection<TombstoneDocument>('feedback_tombstones');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ orgId: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ orgId: 1, removedAt: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ orgId: 1, mergedInto: 1, removedAt: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * Stamped anew by every attempt: a removal that failed and is retried later is a change of that later
   * time (a reader may have passed the first stamp while the item still existed).
   */
  async record(item: FeedbackItem): Promise<void> {
    const { id, ...fields } = item;
    await this.collection.updateOne({ _id: new Types.ObjectId(id) }, { $set: { ...fields, removedAt: new Date(), kind: 'deleted' }, $unset: { mergedInto: '' } }, { upsert: true });
  }

  /** The item as it is, merged into `into`: kept whole until unmerged (see removal's stamping above). */
  async recordMerged(item: FeedbackItem, into: string): Promise<void> {
    const { id, ...fields } = item;
    await this.collection.updateOne({ _id: new Types.ObjectId(id) }, { $set: { ...fields, removedAt: new Date(), kind: 'merged', mergedInto: into } }, { upsert: true });
  }

  /** The organization's item `id` as merged, when it is (its item may be live again: check that first). */
  async findMerged(orgId: string, id: string): Promise<MergedItem | null> {
    const _id = objectIdOrNull(id);
    const doc = _id ? await this.collection.findOne({ _id }) : null;
    return doc && doc.orgId === orgId && doc.kind === 'merged' ? mergedItemOf(doc) : null;
  }

  /** Items merged into any of `intoIds`, oldest merge first (bounded: at most `limit`). */
  async mergedInto(orgId: string, intoIds: string[], limit: number): Promise<MergedItem[]> {
    const docs = await this.collection.find({ orgId, mergedInto: { $in: intoIds } }, { sort: { removedAt: 1 }, limit }).toArray();
    return docs.filter((doc) => doc.kind === 'merged').map(mergedItemOf);
  }

  /** An unmerged item is live again: its merge is forgotten. */
  async forgetMerged(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: new Types.ObjectId(id), kind: 'merged' });
  }

  /** Removed items that `selection` (a feedback filter) matches, removed at or after `since`. */
  async removedSince(selection: mongo.Filter<mongo.Document>, since: Date): Promise<FeedbackDocument[]> {
    const docs = await this.collection.find({ ...selection, removedAt: { $gte: since } }, { ...EXPORT_READ_OPTIONS, sort: { _id: 1 } }).toArray();
    return docs as unknown as FeedbackDocument[];
  }

  /** The organization's removals strictly after `from` and before `before`, in (removedAt, _id) order. */
  async removedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<Array<{ id: string; at: Date; kind: TombstoneKind }>> {
    const docs = await this.collection
      .find(
        { orgId, removedAt: { $gte: from.at, $lt: before }, $or: [{ removedAt: { $gt: from.at } }, { _id: { $gt: new Types.ObjectId(from.id) } }] },
        { projection: { _id: 1, removedAt: 1, kind: 1 }, sort: { removedAt: 1, _id: 1 }, limit },
      )
      .toArray();
    return docs.map((doc) => ({ id: doc._id.toHexString(), at: doc.removedAt, kind: doc.kind ?? 'deleted' }));
  }

  /** Deletions past CHANGES_KEPT_MS; merged items stay (nothing a merge touches is lost). */
  async purge(now = Date.now()): Promise<void> {
    await this.collection.deleteMany({ kind: { $ne: 'merged' }, removedAt: { $lt: new Date(now - CHANGES_KEPT_MS) } });
  }
}
