import { Types, type Connection } from 'mongoose';
import { createdStamp, updatedStamp, type ChangeEntry, type ChangePosition } from '@fi/shared';
import { objectIdOrNull, OrgScopedRepository } from '@fi/shared/database';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';
import type { FeedbackQuery } from '../domain/feedbackListQuery';
import { countedOf, documentOf, storedFields, toItem, type FeedbackItem, type FeedbackRecord } from './feedbackItem';
import { sumOf, type CellRef, type CountDelta } from '../domain/countDelta';
import { SearchIndexStore } from './searchIndexStore';
import { indexedState, searchScope } from '../search/indexedSearch';
import { indexedSearchPage, indexedSearchReads } from './indexedSearchPage';
import type { SearchPath } from '../search/searchMetrics';
import { feedbackFilter, IDS_PER_QUERY, listFeedback, NEWEST_FIRST, type FeedbackPage } from './feedbackList';
import { cellCount, CountStore, type CellDocument } from './countStore';

export interface AuthorStats {
  count: number;
  lastPublished: Date | null;
}

/** A cell's counts and newest publishedDate (see countStore). */
export type CellFigures = Pick<CellDocument, 'c'> & { newest: Date | null };

/** An item with the ids of its recorded webhook events, for a change that must not lose them. */
export interface ItemForChange {
  item: FeedbackItem;
  webhookEventIds: string[] | undefined;
}

export class FeedbackRepository {
  private readonly records: OrgScopedRepository<FeedbackDocument, FeedbackItem>;
  private readonly counts: CountStore;
  /** The search index, shared with the service's indexer so that both keep one set of blocks in memory. */
  readonly search: SearchIndexStore;

  /** `searched` hears how each search was answered (the service's metrics). */
  constructor(
    connection: Connection,
    private readonly searched: (path: SearchPath) => void = () => undefined,
  ) {
    this.records = new OrgScopedRepository(feedbackModel(connection), toItem);
    this.counts = new CountStore(connection);
    this.search = new SearchIndexStore(connection);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([this.records.ensureIndexes(), this.counts.ensureIndexes(), this.search.ensureIndexes()]);
  }

  /**
   * A page of the organization's items; a search of three or more characters is served by the search
   * index: by the index alone when it can (search/indexedSearchPage.ts), else by reading its matches.
   */
  async list(orgId: string, query: FeedbackQuery): Promise<FeedbackPage> {
    const state = await indexedState(this.search, orgId, query.search);
    // The reads of an answer by the index alone need only its state: they go beside the scope's.
    const [scope, reads] = state
      ? await Promise.all([
          searchScope(this.search, orgId, query.search!, state),
          indexedSearchReads(this.records.model, this.counts, this.search, orgId, query, state),
        ])
      : [null, null];
    const indexed =
      scope && reads && (await indexedSearchPage(this.search, this.records.model, orgId, query, scope, reads));
    if (query.search !== undefined) this.searched(indexed ? 'index' : scope ? 'matches' : 'regex');
    return indexed ?? listFeedback(this.records.model, this.counts, orgId, query, scope);
  }

  findById(orgIds: string | Iterable<string>, id: string): Promise<FeedbackItem | null> {
    return this.records.findById(orgIds, id);
  }

  /**
   * Inserts the item under a chosen id unless it exists already; either way returns the stored item.
   * `webhookEventIds` names the event of this creation, stored in the same write.
   */
  async createOnce(
    orgId: string,
    id: string,
    record: FeedbackRecord,
    webhookEventIds: string[],
  ): Promise<{ item: FeedbackItem; created: boolean }> {
    const doc: FeedbackDocument = {
      _id: new Types.ObjectId(id),
      orgId,
      ...storedFields(record),
      ...createdStamp(),
      webhookEventIds,
    };
    try {
      await this.records.model.collection.insertOne(doc);
      return { item: toItem(doc), created: true };
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
      const existing = await this.records.findById(orgId, id);
      if (!existing) throw error;
      return { item: existing, created: false };
    }
  }

  /**
   * Puts an item that left the live items (a merged duplicate) back exactly as it was, naming the change
   * `webhookEventId` in the same write; null when it is live already (an earlier attempt put it back).
   */
  async restore(item: FeedbackItem, webhookEventId: string): Promise<FeedbackItem | null> {
    const doc: FeedbackDocument = { ...documentOf(item), ...updatedStamp(), webhookEventIds: [webhookEventId] };
    try {
      await this.records.model.collection.insertOne(doc);
      return toItem(doc);
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
  }

  /**
   * Writes a batch under chosen ids, in order (so the presence of the last proves the whole batch);
   * returns how many were written.
   */
  async insertBatch(orgId: string, ids: string[], records: FeedbackRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    const stamp = createdStamp();
    const docs = records.map((record, i) => ({
      _id: new Types.ObjectId(ids[i]),
      orgId,
      ...storedFields(record),
      ...stamp,
    }));
    const result = await this.records.model.collection.insertMany(docs, { ordered: true });
    return result.insertedCount;
  }

  /** Items changed after `from` and before `before`, in the changes feed's order. */
  changedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<ChangeEntry<FeedbackItem>[]> {
    return this.records.changedAfter(orgId, from, before, limit);
  }

  /** Which of `ids` exist (read by `_id` alone). */
  existingIds(ids: string[]): Promise<Set<string>> {
    return this.records.existingIds(ids);
  }

  /**
   * The delta of the items among `itemIds` that exist (an import batch that died midway), read by `_id` in
   * chunks of IDS_PER_QUERY (a seed's batch holds 50,000).
   */
  async deltaOfExisting(orgId: string, itemIds: string[]): Promise<CountDelta> {
    const ids = itemIds.flatMap((id) => objectIdOrNull(id) ?? []);
    const docs: FeedbackDocument[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
      docs.push(
        ...(await this.records.model.collection
          .find<FeedbackDocument>({ _id: { $in: ids.slice(start, start + IDS_PER_QUERY) } })
          .toArray()),
      );
    }
    return sumOf(docs.filter((doc) => doc.orgId === orgId).map((doc) => [null, countedOf(toItem(doc))]));
  }

  /** The newest publishedDate of a contact's or account's items (after a removal). */
  async newestPublished(cell: CellRef): Promise<Date | null> {
    const field = cell.scope === 'email' ? 'emailLower' : 'emailDomain';
    const [doc] = await this.records.model.collection
      .find<Pick<FeedbackDocument, 'publishedDate'>>(
        { orgId: cell.orgId, [field]: cell.key },
        { projection: { _id: 0, publishedDate: 1 }, sort: { publishedDate: -1 }, limit: 1 },
      )
      .toArray();
    return doc?.publishedDate ?? null;
  }

  /** The organization's item by id, with its recorded webhook event ids (read by `_id` alone). */
  async findForChange(orgId: string, id: string): Promise<ItemForChange | null> {
    const _id = objectIdOrNull(id);
    if (!_id) return null;
    const doc = await this.records.model.findOne({ _id }).lean<FeedbackDocument>();
    if (!doc || doc.orgId !== orgId) return null;
    return { item: toItem(doc), webhookEventIds: doc.webhookEventIds };
  }

  /** The ids of the webhook events the item's last changes named; null when there is no such item. */
  async changeEvidence(itemId: string): Promise<Pick<FeedbackDocument, 'webhookEventIds'> | null> {
    const _id = objectIdOrNull(itemId);
    if (!_id) return null;
    return this.records.model.collection.findOne<Pick<FeedbackDocument, 'webhookEventIds'>>(
      { _id },
      { projection: { _id: 0, webhookEventIds: 1 } },
    );
  }

  /**
   * Deletes the item unless a change recorded another webhook event since it was read (whose event would
   * then lose its proof); false when nothing was deleted.
   */
  async removeUnchanged(read: ItemForChange): Promise<boolean> {
    const result = await this.records.model.deleteOne({
      _id: new Types.ObjectId(read.item.id),
      webhookEventIds: read.webhookEventIds ?? { $exists: false },
    });
    return result.deletedCount === 1;
  }

  /**
   * The items of the given authors (lower-cased emails) matching the list's filters, newest first,
   * streamed: one query for a page of contacts (one per contact would scan the collection once each
   * on the embedded engine).
   */
  itemsOfEmails(orgIds: string[], emails: string[], query: FeedbackQuery): AsyncIterable<FeedbackDocument> {
    const filter = { ...feedbackFilter('', query), orgId: { $in: orgIds }, emailLower: { $in: emails } };
    return this.records.model.find(filter).sort(NEWEST_FIRST).lean<FeedbackDocument>().cursor();
  }

  /** Kept figures of a page of accounts' email domains (lower-cased). */
  async domainFigures(orgId: string, domains: string[]): Promise<Map<string, CellFigures>> {
    const cells = await this.counts.byRefs(domains.map((key) => ({ scope: 'domain', orgId, key })));
    return new Map(cells.map((cell) => [cell.key, { c: cell.c, newest: cell.newest ?? null }]));
  }

  /** Feedback count and newest publishedDate per author email, for a page of contacts, from the kept counts. */
  async statsByEmail(orgId: string, emails: string[]): Promise<Map<string, AuthorStats>> {
    const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
    const stats = new Map<string, AuthorStats>(wanted.map((email) => [email, { count: 0, lastPublished: null }]));
    for (const cell of await this.counts.byRefs(wanted.map((key) => ({ scope: 'email', orgId, key })))) {
      const count = cellCount(cell);
      stats.set(cell.key, { count, lastPublished: count > 0 ? (cell.newest ?? null) : null });
    }
    return stats;
  }
}
