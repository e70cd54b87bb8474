import { Types, type Connection } from 'mongoose';
import { objectIdOrNull, OrgScopedRepository } from '@fi/shared';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';
import type { FeedbackQuery } from '../domain/feedbackListQuery';
import { storedFields, toItem, type FeedbackItem, type FeedbackRecord } from './feedbackItem';
import { feedbackFilter, listFeedback, NEWEST_FIRST, type FeedbackPage } from './feedbackList';

export interface AuthorStats {
  count: number;
  lastPublished: Date | null;
}

export type SummaryRow = Pick<FeedbackDocument, 'orgId' | 'emailDomain' | 'sentiment' | 'status' | 'publishedDate'>;

/** An item with the ids of its recorded webhook events, for a change that must not lose them. */
export interface ItemForChange {
  item: FeedbackItem;
  webhookEventIds: string[] | undefined;
}

export class FeedbackRepository {
  private readonly records: OrgScopedRepository<FeedbackDocument, FeedbackItem>;

  constructor(connection: Connection) {
    this.records = new OrgScopedRepository(feedbackModel(connection), toItem);
  }

  ensureIndexes(): Promise<void> {
    return this.records.ensureIndexes();
  }

  list(orgId: string, query: FeedbackQuery): Promise<FeedbackPage> {
    return listFeedback(this.records.model, orgId, query);
  }

  findById(orgIds: string | Iterable<string>, id: string): Promise<FeedbackItem | null> {
    return this.records.findById(orgIds, id);
  }

  /**
   * Inserts the item under a chosen id unless it exists already; either way returns the stored item.
   * `webhookEventIds` names the event of this creation, stored in the same write.
   */
  async createOnce(orgId: string, id: Types.ObjectId, record: FeedbackRecord, webhookEventIds?: string[]): Promise<FeedbackItem> {
    const doc: FeedbackDocument = { _id: id, orgId, ...storedFields(record), ...(webhookEventIds ? { webhookEventIds } : {}) };
    try {
      await this.records.model.collection.insertOne(doc);
      return toItem(doc);
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
      const existing = await this.records.findById(orgId, id.toHexString());
      if (!existing) throw error;
      return existing;
    }
  }

  insertMany(orgId: string, records: FeedbackRecord[]): Promise<number> {
    return this.records.insertMany(orgId, records.map(storedFields));
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
    return this.records.model.collection.findOne<Pick<FeedbackDocument, 'webhookEventIds'>>({ _id }, { projection: { _id: 0, webhookEventIds: 1 } });
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

  /** The items of the given authors (lower-cased emails) matching the list's filters, newest first, streamed. */
  itemsOfEmails(orgIds: string[], emails: string[], query: FeedbackQuery): AsyncIterable<FeedbackDocument> {
    const filter = feedbackFilter({ $in: orgIds }, query);
    filter.emailLower = { $in: emails };
    return this.records.model.find(filter).sort(NEWEST_FIRST).lean<FeedbackDocument>().cursor();
  }

  /**
   * What an account summary counts of each item with one of the given email domains, streamed; on
   * MongoDB the projection is covered by an index.
   */
  summaryRowsOfDomains(orgIds: string[], domains: string[]): AsyncIterable<SummaryRow> {
    return this.records.model
      .find({ orgId: { $in: orgIds }, emailDomain: { $in: domains } }, { _id: 0, orgId: 1, emailDomain: 1, sentiment: 1, status: 1, publishedDate: 1 })
      .lean<SummaryRow>()
      .cursor();
  }

  /**
   * Feedback count and newest publishedDate per author email, for a page of contacts in one round trip.
   * A covered index scan rather than `$group` with `$max`: FerretDB v1 has no `$max` accumulator, and
   * the same code must run on MongoDB and FerretDB.
   */
  async statsByEmail(orgId: string, emails: string[]): Promise<Map<string, AuthorStats>> {
    const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
    const stats = new Map<string, AuthorStats>(wanted.map((email) => [email, { count: 0, lastPublished: null }]));
    if (wanted.length === 0) return stats;
    const rows = await this.records.model
      .find({ orgId, emailLower: { $in: wanted } }, { _id: 0, emailLower: 1, publishedDate: 1 })
      .lean<Array<Pick<FeedbackDocument, 'emailLower' | 'publishedDate'>>>();
    for (const row of rows) {
      const entry = stats.get(row.emailLower ?? '');
      if (!entry) continue;
      entry.count += 1;
      if (!entry.lastPublished || row.publishedDate > entry.lastPublished) entry.lastPublished = row.publishedDate;
    }
    return stats;
  }
}
