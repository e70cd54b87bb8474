import { Types, type Collection, type Connection, type mongo } from 'mongoose';
import { CHANGES_KEPT_MS, type ChangePosition } from '../changes/changeFeed';
import type { RemovalLog } from '../changes/changeSources';
import { EXPORT_READ_OPTIONS } from '../export/exportSource';
import { INDEX_BUILD_TIME_LIMIT } from './mongo';
import { objectIdOrNull } from './objectId';

/** What a tombstone keeps of its record: the record's own fields (the organization among them). */
export type TombstoneFields = { orgId: string } & Record<string, unknown>;

/** Deleted for good (kept CHANGES_KEPT_MS), or merged into another record (kept until unmerged). */
export type TombstoneKind = 'deleted' | 'merged';

export type TombstoneDocument = TombstoneFields & {
  _id: Types.ObjectId;
  removedAt: Date;
  kind?: TombstoneKind;
  mergedInto?: string;
};

/** How often a service purges tombstones older than CHANGES_KEPT_MS. */
export const TOMBSTONE_PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * Records as they were just before they left the live records, written before the record goes: by a
 * removal (kept CHANGES_KEPT_MS) or a merge into another record (kept whole until unmerged). The changes
 * feed lists them as deletions or merges, and an export that had not yet read the record's page still
 * writes it. Stored under the record's own id with its own field names, so a list's filter selects them
 * as it selects live records. One collection per resource (`<resource>_tombstones`). A tombstone whose
 * record is live again (its removal or merge failed after it was written, or an unmerge did not finish)
 * stands for nothing.
 */
export class Tombstones {
  private readonly collection: Collection<TombstoneDocument>;

  constructor(connection: Connection, collectionName: string) {
    this.collection = connection.collection<TombstoneDocument>(collectionName);
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ orgId: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ orgId: 1, removedAt: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ orgId: 1, mergedInto: 1, removedAt: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * Stamped anew by every attempt: a removal that failed and is retried later is a change of that later
   * time (a reader may have passed the first stamp while the record still existed).
   */
  async record(id: string, fields: TombstoneFields): Promise<void> {
    const { _id: _ignored, ...stored } = fields;
    await this.collection.updateOne(
      { _id: new Types.ObjectId(id) },
      { $set: { ...stored, removedAt: new Date(), kind: 'deleted' }, $unset: { mergedInto: '' } },
      { upsert: true },
    );
  }

  /** The record as it is, merged into `into`: kept whole until unmerged (stamped as a removal is). */
  async recordMerged(id: string, fields: TombstoneFields, into: string): Promise<void> {
    const { _id: _ignored, ...stored } = fields;
    await this.collection.updateOne(
      { _id: new Types.ObjectId(id) },
      { $set: { ...stored, removedAt: new Date(), kind: 'merged', mergedInto: into } },
      { upsert: true },
    );
  }

  /** The organization's record `id` as merged, when it is (it may be live again: check that first). */
  protected async findMergedDocument(orgId: string, id: string): Promise<TombstoneDocument | null> {
    const _id = objectIdOrNull(id);
    const doc = _id ? await this.collection.findOne({ _id }) : null;
    return doc && doc.orgId === orgId && doc.kind === 'merged' ? doc : null;
  }

  /** Records merged into any of `intoIds`, oldest merge first (at most `limit`). */
  protected async mergedDocuments(orgId: string, intoIds: string[], limit: number): Promise<TombstoneDocument[]> {
    const docs = await this.collection
      .find({ orgId, mergedInto: { $in: intoIds } }, { sort: { removedAt: 1 }, limit })
      .toArray();
    return docs.filter((doc) => doc.kind === 'merged');
  }

  /** An unmerged record is live again: its merge is forgotten. */
  async forgetMerged(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: new Types.ObjectId(id), kind: 'merged' });
  }

  /** Removed records that `selection` (a filter of the live records, organization included) matches, removed at or after `since`. */
  async removedSince<D>(selection: mongo.Filter<mongo.Document>, since: Date): Promise<D[]> {
    const docs = await this.collection
      .find({ ...selection, removedAt: { $gte: since } }, { ...EXPORT_READ_OPTIONS, sort: { _id: 1 } })
      .toArray();
    return docs as unknown as D[];
  }

  /** The organization's removals strictly after `from` and before `before`, in (removedAt, _id) order. */
  readonly removedAfter: RemovalLog['removedAfter'] = async (
    orgId: string,
    from: ChangePosition,
    before: Date,
    limit: number,
  ) => {
    const docs = await this.collection
      .find(
        {
          orgId,
          removedAt: { $gte: from.at, $lt: before },
          $or: [{ removedAt: { $gt: from.at } }, { _id: { $gt: new Types.ObjectId(from.id) } }],
        },
        { projection: { _id: 1, removedAt: 1, kind: 1 }, sort: { removedAt: 1, _id: 1 }, limit },
      )
      .toArray();
    return docs.map((doc) => ({ id: doc._id.toHexString(), at: doc.removedAt, kind: doc.kind ?? 'deleted' }));
  };

  /** Deletions past CHANGES_KEPT_MS; merged records stay (nothing a merge touches is lost). */
  async purge(now = Date.now()): Promise<void> {
    await this.collection.deleteMany({ kind: { $ne: 'merged' }, removedAt: { $lt: new Date(now - CHANGES_KEPT_MS) } });
  }
}
