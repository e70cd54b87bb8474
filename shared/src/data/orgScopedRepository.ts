import { Types, type FilterQuery, type Model, type mongo } from 'mongoose';
import type { Page, PageResult } from '../pagination';
import { INDEX_BUILD_TIME_LIMIT } from './mongo';
import { buildIndexes } from './buildIndexes';
import { substringPattern } from '../validation';
import { objectIdOrNull } from './objectId';
import { IdReads } from './idReads';
import { createdStamp, updatedStamp, type ChangeStamped } from '../changes/changeStamp';
import type { ChangeEntry, ChangePosition } from '../changes/changeFeed';
import type { Tombstones } from './tombstones';

export interface OrgScopedDocument extends ChangeStamped {
  _id: Types.ObjectId;
  orgId: string;
  createdAt: Date;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

const idRange = (after: Types.ObjectId | null, upTo: Types.ObjectId) =>
  after ? { $gt: after, $lte: upTo } : { $lte: upTo };

/**
 * Records that belong to organizations (feedback, contacts, accounts): newest-first pages with an exact
 * `total`, an optional literal case-insensitive search over some fields, lookups by id, bulk inserts.
 * Every query carries the organization, so one tenant can never read another's records.
 */
export class OrgScopedRepository<D extends OrgScopedDocument, T> {
  private readonly byId: IdReads<D>;

  constructor(
    readonly model: Model<D>,
    private readonly toItem: (doc: D) => T,
    private readonly searchFields: ReadonlyArray<keyof D & string> = [],
    /** Fields stored beside each record and computed from it (e.g. lower-cased match keys). */
    private readonly derive: (record: Omit<D, '_id' | 'orgId'>) => Partial<D> = () => ({}),
  ) {
    // The driver's own reads: mongoose's query building (casting, options) costs more client CPU than
    // the lookup itself, and this runs for every single-record read and entity fetch.
    this.byId = new IdReads<D>(async (ids) => {
      if (ids.length > 1) return (await model.collection.find({ _id: { $in: ids } }).toArray()) as unknown as D[];
      const doc = (await model.collection.findOne({ _id: ids[0] })) as D | null;
      return doc ? [doc] : [];
    });
  }

  async ensureIndexes(): Promise<void> {
    await buildIndexes(this.model);
  }

  async search(orgId: string, text: string | null | undefined, page: Page): Promise<PageResult<T>> {
    return this.listWhere(this.searchFilter(orgId, text), page);
  }

  /** The organization's records that `search` matches (created at or before `createdBy`, when given). */
  searchFilter(orgId: string, text: string | null | undefined, createdBy?: Date): FilterQuery<D> {
    const pattern = substringPattern(text);
    const query = (createdBy ? { orgId, createdAt: { $lte: createdBy } } : { orgId }) as FilterQuery<D>;
    if (pattern) query.$or = this.searchFields.map((field) => ({ [field]: pattern })) as FilterQuery<D>[];
    return query;
  }

  /** Keyset reads by ascending id within an organization (exports), served by the index built here. */
  async ensureKeysetIndex(): Promise<void> {
    await this.model.collection.createIndex({ orgId: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * Records of `query` (which must include the organization) with after < _id <= upTo, ascending, through
   * one cursor (a server that cannot narrow by an id range, such as FerretDB, scans once, not per page).
   */
  async *keysetScan(
    query: FilterQuery<D>,
    after: Types.ObjectId | null,
    upTo: Types.ObjectId,
    batchSize: number,
    options: mongo.FindOptions,
  ): AsyncGenerator<{ _id: Types.ObjectId; item: T }> {
    const cursor = this.model.collection.find({ ...query, _id: idRange(after, upTo) } as mongo.Filter<mongo.Document>, {
      ...options,
      sort: { _id: 1 },
      batchSize,
    });
    for await (const doc of cursor) yield { _id: doc._id as Types.ObjectId, item: this.toItem(doc as unknown as D) };
  }

  /**
   * Records of `query` with after < _id <= upTo removed at or after `since`, as they were just before
   * (their tombstones hold the record's own fields, so `query` selects them as it selects live ones).
   */
  async removedSince(
    tombstones: Tombstones,
    query: FilterQuery<D>,
    after: Types.ObjectId | null,
    upTo: Types.ObjectId,
    since: Date,
  ): Promise<Array<{ _id: Types.ObjectId; item: T }>> {
    const docs = await tombstones.removedSince<D>(
      { ...query, _id: idRange(after, upTo) } as mongo.Filter<mongo.Document>,
      since,
    );
    return docs.map((doc) => ({ _id: doc._id, item: this.toItem(doc) }));
  }

  countUpTo(query: FilterQuery<D>, upTo: Types.ObjectId, options: mongo.CountDocumentsOptions): Promise<number> {
    return this.model.collection.countDocuments(
      { ...query, _id: { $lte: upTo } } as mongo.Filter<mongo.Document>,
      options,
    );
  }

  /**
   * The organization's records changed strictly after `from` and before `before`, in (changedAt, _id)
   * order: the live half of a changes feed, read through CHANGE_STAMP_INDEX.
   */
  async changedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<ChangeEntry<T>[]> {
    const query = {
      orgId,
      changedAt: { $gte: from.at, $lt: before },
      $or: [{ changedAt: { $gt: from.at } }, { _id: { $gt: new Types.ObjectId(from.id) } }],
    } as mongo.Filter<mongo.Document>;
    const docs = (await this.model.collection
      .find(query, { sort: { changedAt: 1, _id: 1 }, limit })
      .toArray()) as unknown as D[];
    return docs.map((doc) => ({
      type: doc.changeType ?? 'created',
      id: doc._id.toHexString(),
      at: doc.changedAt as Date,
      item: this.toItem(doc),
    }));
  }

  /** `query` must include the organization. */
  async listWhere(query: FilterQuery<D>, page: Page): Promise<PageResult<T>> {
    const [docs, total] = await Promise.all([
      page.take === 0
        ? Promise.resolve([] as D[])
        : this.model.find(query).sort(NEWEST_FIRST).skip(page.skip).limit(page.take).lean<D[]>(),
      this.model.countDocuments(query),
    ]);
    return { items: docs.map(this.toItem), total };
  }

  /**
   * The record with this id when it belongs to one of `orgIds`. The query names only `_id` and the
   * organization is checked here: ids are unique across organizations, and a lone `_id` is the one
   * filter every MongoDB-compatible server answers from its primary key (FerretDB v1 scans the whole
   * collection for anything else).
   */
  async findById(orgIds: string | Iterable<string>, id: string): Promise<T | null> {
    const doc = await this.findOwnDocument(orgIds, id);
    return doc ? this.toItem(doc) : null;
  }

  /** Which of `ids` exist (read by `_id` alone). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    const objectIds = ids.flatMap((id) => objectIdOrNull(id) ?? []);
    if (objectIds.length === 0) return new Set();
    const docs = await this.model.collection.find({ _id: { $in: objectIds } }, { projection: { _id: 1 } }).toArray();
    return new Set(docs.map((doc) => (doc._id as Types.ObjectId).toHexString()));
  }

  /**
   * Replaces the `editable` fields of the organization's record with `changes` (a field absent from
   * `changes` is removed), recomputes the derived fields and stamps the change, in one write. Null when
   * the organization has no such record.
   */
  async update(
    orgId: string,
    id: string,
    changes: Partial<Omit<D, '_id' | 'orgId'>>,
    editable: ReadonlyArray<keyof D & string>,
  ): Promise<T | null> {
    const doc = await this.findOwnDocument(orgId, id);
    if (!doc) return null;
    const set: Record<string, unknown> = {};
    const unset: Record<string, ''> = {};
    for (const field of editable) {
      const value = (changes as Record<string, unknown>)[field];
      if (value === undefined) unset[field] = '';
      else set[field] = value;
    }
    const after = { ...doc, ...set } as Record<string, unknown>;
    for (const field of Object.keys(unset)) delete after[field];
    const update = {
      $set: { ...set, ...this.derive(after as Omit<D, '_id' | 'orgId'>), ...updatedStamp() },
      ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
    };
    // By `_id` alone (see findById): the organization was checked on the read, and a record never moves.
    const updated = (await this.model.collection.findOneAndUpdate(
      { _id: doc._id },
      update as mongo.UpdateFilter<mongo.Document>,
      { returnDocument: 'after' },
    )) as D | null;
    return updated ? this.toItem(updated) : null;
  }

  /**
   * Deletes the organization's record after writing its tombstone (the changes feed's deletion, and the
   * record for exports that had not read it yet); true when this call deleted it. A retried removal writes
   * the tombstone again, with a new time.
   */
  async remove(orgId: string, id: string, tombstones: Tombstones): Promise<boolean> {
    const doc = await this.findOwnDocument(orgId, id);
    if (!doc) return false;
    await tombstones.record(id, doc as unknown as { orgId: string } & Record<string, unknown>);
    const result = await this.model.collection.deleteOne({ _id: doc._id });
    return result.deletedCount === 1;
  }

  private async findOwnDocument(orgIds: string | Iterable<string>, id: string): Promise<D | null> {
    const _id = objectIdOrNull(id);
    if (!_id) return null;
    const doc = await this.byId.load(_id);
    if (!doc) return null;
    const allowed = typeof orgIds === 'string' ? doc.orgId === orgIds : new Set(orgIds).has(doc.orgId);
    return allowed ? doc : null;
  }

  async insertMany(orgId: string, records: Array<Omit<D, '_id' | 'orgId'>>): Promise<number> {
    if (records.length === 0) return 0;
    const stamp = createdStamp();
    const result = await this.model.collection.insertMany(
      records.map((record) => this.newDocument(orgId, record, stamp)),
      { ordered: false },
    );
    return result.insertedCount;
  }

  /** Stores one new record of the organization; returns it as read. */
  async create(orgId: string, record: Omit<D, '_id' | 'orgId'>): Promise<T> {
    const doc = this.newDocument(orgId, record, createdStamp());
    await this.model.collection.insertOne(doc);
    return this.toItem(doc as unknown as D);
  }

  private newDocument(orgId: string, record: Omit<D, '_id' | 'orgId'>, stamp: Required<ChangeStamped>) {
    return { ...record, ...this.derive(record), ...stamp, _id: new Types.ObjectId(), orgId };
  }
}
