import { Types, type Connection } from 'mongoose';
import { createdStamp, updatedStamp, type ChangeEntry, type ChangePosition } from '@fi/shared';
import { insertUnordered, objectIdOrNull, OrgScopedRepository } from '@fi/shared/database';
import type { CellRef } from '../model/countDelta';
import type {
  FeedbackItem,
  FeedbackRecord,
  FeedbackStatus,
  ItemForChange,
  Sentiment,
  SentimentGiver,
  StatusChange,
} from '../model/feedbackItem';
import type { FeedbackPage, FeedbackQuery } from '../model/feedbackQuery';
import { CountStore } from './countStore';
import { documentOf, storedFields, toItem } from './feedbackDocuments';
import { listFeedback, type Candidates } from './feedbackList';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';
import { totalOf } from './feedbackTotals';
import { idChunks, idsFilter } from './ferretDbV1';

/**
 * The item as its change was computed from: its status and sentiment, the two things a change moves
 * between count cells (status x sentiment). A write conditional on both never applies a delta computed
 * from a state another write has left, whichever of the two that write changed.
 */
const countedAsRead = ({ item }: ItemForChange) => ({
  _id: new Types.ObjectId(item.id),
  status: item.status,
  sentiment: item.sentiment ?? null,
});

/** Change ids kept on an item: enough for any change still waiting for the relay. */
const MAX_CHANGE_IDS = 20;

const forChange = (doc: FeedbackDocument): ItemForChange => ({ item: toItem(doc), changeIds: doc.webhookEventIds });

/**
 * The items (`feedback_items`): the core's repository, which answers the use cases' ports (see
 * domain/ports.ts) and the reads the features make of the items. Every write is one atomic
 * single-document write; a change names its change id in the same write (the change stream's proof).
 */
export class FeedbackRepository {
  private readonly records: OrgScopedRepository<FeedbackDocument, FeedbackItem>;
  private readonly counts: CountStore;

  constructor(connection: Connection) {
    this.records = new OrgScopedRepository(feedbackModel(connection), toItem);
    this.counts = new CountStore(connection);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([this.records.ensureIndexes(), this.counts.ensureIndexes()]);
  }

  private get model() {
    return this.records.model;
  }

  /** A page of the organization's items; a search matches every item by its regex (see search/ for the index). */
  list(orgId: string, query: FeedbackQuery): Promise<FeedbackPage> {
    return listFeedback(this.model, this.counts, orgId, query);
  }

  /** A page of the organization's items among candidates (a search index's matches and the items it does not hold yet). */
  listAmong(orgId: string, query: FeedbackQuery, candidates: Candidates): Promise<FeedbackPage> {
    return listFeedback(this.model, this.counts, orgId, query, candidates);
  }

  /** How many items the organization has (from the kept counts). */
  total(orgId: string): Promise<number> {
    return totalOf(this.model, this.counts, orgId, { page: { skip: 0, take: 0 } }, { orgId });
  }

  /** How many of the organization's items have an id after `after`. */
  countAfterId(orgId: string, after: string): Promise<number> {
    return this.model.countDocuments({ orgId, _id: { $gt: new Types.ObjectId(after) } });
  }

  /**
   * The organization's newest `limit` items after the id `after` (null: any), newest id first: one range
   * of the (organization, `_id`) index read in order and cut at the limit, on every engine. A search reads
   * the items its index does not hold yet this way, once, and matches them in process (see Candidates).
   */
  async newestAfter(orgId: string, after: string | null, limit: number): Promise<FeedbackItem[]> {
    const docs = await this.model
      .find({ orgId, ...(after ? { _id: { $gt: new Types.ObjectId(after) } } : {}) })
      .sort({ _id: -1 })
      .limit(limit)
      .lean<FeedbackDocument[]>();
    return docs.map(toItem);
  }

  findById(orgIds: string | Iterable<string>, id: string): Promise<FeedbackItem | null> {
    return this.records.findById(orgIds, id);
  }

  /** The organization's items among `ids`, in no order (read by `_id`). */
  async findAmong(orgId: string, ids: string[]): Promise<FeedbackItem[]> {
    if (ids.length === 0) return [];
    const docs = await this.model
      .find({ orgId, _id: { $in: ids.map((id) => new Types.ObjectId(id)) } })
      .lean<FeedbackDocument[]>();
    return docs.map(toItem);
  }

  /** Which of these ids are the organization's live items (read by `_id`, IDS_PER_QUERY at a time). */
  async liveAmong(orgId: string, ids: string[]): Promise<Set<string>> {
    const live = new Set<string>();
    for (const chunk of idChunks(ids)) {
      const docs = await this.model
        .find({ orgId, _id: { $in: chunk.map((id) => new Types.ObjectId(id)) } }, { _id: 1 })
        .lean<Array<{ _id: Types.ObjectId }>>();
      for (const doc of docs) live.add(doc._id.toHexString());
    }
    return live;
  }

  /** Which of `ids` exist (read by `_id` alone). */
  existingIds(ids: string[]): Promise<Set<string>> {
    return this.records.existingIds(ids);
  }

  /** Items changed after `from` and before `before`, in the changes feed's order. */
  changedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<ChangeEntry<FeedbackItem>[]> {
    return this.records.changedAfter(orgId, from, before, limit);
  }

  /** The organization's items among `ids` with the ids of their changes (malformed, unknown and other organizations' ids are missing). */
  async findOwn(orgId: string, ids: string[]): Promise<Map<string, ItemForChange>> {
    const objectIds = ids.flatMap((id) => objectIdOrNull(id) ?? []);
    if (objectIds.length === 0) return new Map();
    const docs = await this.model.find(idsFilter(objectIds)).lean<FeedbackDocument[]>();
    return new Map(docs.filter((doc) => doc.orgId === orgId).map((doc) => [doc._id.toHexString(), forChange(doc)]));
  }

  /** The organization's item by id, with the ids of its changes (read by `_id` alone). */
  async findForChange(orgId: string, id: string): Promise<ItemForChange | null> {
    const _id = objectIdOrNull(id);
    if (!_id) return null;
    const doc = await this.model.findOne({ _id }).lean<FeedbackDocument>();
    if (!doc || doc.orgId !== orgId) return null;
    return forChange(doc);
  }

  /**
   * Inserts the item under a chosen id unless it exists already; either way returns the stored item.
   * `changeIds` names the change of this creation, stored in the same write.
   */
  async createOnce(
    orgId: string,
    id: string,
    record: FeedbackRecord,
    changeIds: string[],
  ): Promise<{ item: FeedbackItem; created: boolean }> {
    const doc: FeedbackDocument = {
      _id: new Types.ObjectId(id),
      orgId,
      ...storedFields(record),
      ...createdStamp(),
      webhookEventIds: changeIds,
    };
    try {
      await this.model.collection.insertOne(doc);
      return { item: toItem(doc), created: true };
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
      const existing = await this.records.findById(orgId, id);
      if (!existing) throw error;
      return { item: existing, created: false };
    }
  }

  /**
   * Writes a batch under chosen ids, in order (so the presence of the last proves the whole batch);
   * returns how many were written.
   */
  async insertBatch(orgId: string, ids: string[], records: FeedbackRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    const result = await this.model.collection.insertMany(this.newDocuments(orgId, ids, records), { ordered: true });
    return result.insertedCount;
  }

  /**
   * Writes each item under its chosen id, naming its own change (as createOnce does), unless an item has the
   * id already (another add of the same external id got there first); the ids written. One unordered insert.
   */
  async insertEach(orgId: string, ids: string[], records: FeedbackRecord[], changeIds: string[]): Promise<string[]> {
    if (records.length === 0) return [];
    const docs = this.newDocuments(orgId, ids, records).map((doc, i) => ({ ...doc, webhookEventIds: [changeIds[i]] }));
    const taken = await insertUnordered(this.model.collection, docs);
    return ids.filter((_, i) => !taken.has(i));
  }

  private newDocuments(orgId: string, ids: string[], records: FeedbackRecord[]) {
    const stamp = createdStamp();
    return records.map((record, i) => ({
      _id: new Types.ObjectId(ids[i]),
      orgId,
      ...storedFields(record),
      ...stamp,
    }));
  }

  /**
   * Sets the status of a stored item if it still has the status it was read with, in one atomic update
   * by `_id` that returns the document as it was: the previous value is known exactly at the write,
   * concurrent writers never lose an update, and status and updatedAt always change together. Null when
   * the item was deleted or changed meanwhile (read it again). `changeId` names the change in the same write.
   */
  async setStatus(
    current: ItemForChange,
    status: FeedbackStatus,
    now = new Date(),
    changeId?: string,
  ): Promise<StatusChange | null> {
    if (current.item.status === status) return { item: current.item, previousStatus: status, changed: false };
    const named = changeId ? { $push: { webhookEventIds: { $each: [changeId], $slice: -MAX_CHANGE_IDS } } } : {};
    const before = await this.model
      .findOneAndUpdate(
        countedAsRead(current),
        { $set: { status, updatedAt: now, ...updatedStamp() }, ...named },
        { new: false },
      )
      .lean<FeedbackDocument>();
    if (!before) return null;
    return { item: toItem({ ...before, status, updatedAt: now }), previousStatus: before.status, changed: true };
  }

  /**
   * Sets a sentiment given after the item was stored (read by a model, or given by a person) if the item
   * still has the sentiment and source it was read with, so a sentiment given meanwhile is never replaced
   * unseen; null when it changed. `changeId` names the change in the same write.
   */
  async setSentiment(
    current: ItemForChange,
    sentiment: Sentiment,
    source: SentimentGiver,
    now: Date,
    changeId: string,
  ): Promise<FeedbackItem | null> {
    const before = await this.model
      .findOneAndUpdate(
        { ...countedAsRead(current), sentimentSource: current.item.sentimentSource },
        {
          $set: { sentiment, sentimentSource: source, updatedAt: now, ...updatedStamp() },
          $unset: { sentimentScore: 1 },
          $push: { webhookEventIds: { $each: [changeId], $slice: -MAX_CHANGE_IDS } },
        },
        { new: false },
      )
      .lean<FeedbackDocument>();
    if (!before) return null;
    return { ...toItem(before), sentiment, sentimentScore: null, sentimentSource: source, updatedAt: now };
  }

  /**
   * Deletes the item unless a change named another change since it was read (whose change would then lose
   * its proof); false when nothing was deleted.
   */
  async removeUnchanged(read: ItemForChange): Promise<boolean> {
    const result = await this.model.deleteOne({
      _id: new Types.ObjectId(read.item.id),
      webhookEventIds: read.changeIds ?? { $exists: false },
    });
    return result.deletedCount === 1;
  }

  /**
   * Puts an item that left the live items (a merged duplicate) back exactly as it was, naming the change
   * `changeId` in the same write; null when it is live already (an earlier attempt put it back).
   */
  async restore(item: FeedbackItem, changeId: string): Promise<FeedbackItem | null> {
    const doc: FeedbackDocument = { ...documentOf(item), ...updatedStamp(), webhookEventIds: [changeId] };
    try {
      await this.model.collection.insertOne(doc);
      return toItem(doc);
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
  }

  /** The newest publishedDate of a contact's or account's items (after a removal). */
  async newestPublished(cell: CellRef): Promise<Date | null> {
    const field = cell.scope === 'email' ? 'emailLower' : 'emailDomain';
    const [doc] = await this.model.collection
      .find<Pick<FeedbackDocument, 'publishedDate'>>(
        { orgId: cell.orgId, [field]: cell.key },
        { projection: { _id: 0, publishedDate: 1 }, sort: { publishedDate: -1 }, limit: 1 },
      )
      .toArray();
    return doc?.publishedDate ?? null;
  }
}
