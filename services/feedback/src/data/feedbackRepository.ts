import { Types, type Connection } from 'mongoose';
import { emailDomainOf, objectIdOrNull, OrgScopedRepository } from '@fi/shared';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';
import type { FeedbackQuery } from '../domain/feedbackListQuery';
import { listFeedback, type FeedbackPage } from './feedbackList';

export interface FeedbackItem {
  id: string;
  orgId: string;
  source: string;
  title: string;
  content: string;
  author: string | null;
  email: string | null;
  sentiment: string | null;
  sentimentScore: number | null;
  sentimentSource: string;
  /** Absent on items stored before the service read languages: the resolver reads it then. */
  language?: string | null;
  status: string;
  /** Ids of the item's themes, most relevant first (absent when it has none). */
  themeIds?: string[];
  metadata: Record<string, unknown> | null;
  publishedDate: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A validated item ready to store; `status`, `publishedDate` and `createdAt` are set by the caller. */
export interface FeedbackRecord {
  source: string;
  title: string;
  content: string;
  author?: string;
  email?: string;
  sentiment?: string;
  sentimentScore?: number;
  sentimentSource?: string;
  language?: string | null;
  metadata?: Record<string, unknown>;
  status: string;
  publishedDate: Date;
  createdAt: Date;
}

export interface AuthorStats {
  count: number;
  lastPublished: Date | null;
}

export function toItem(doc: FeedbackDocument): FeedbackItem {
  return {
    id: doc._id.toHexString(),
    orgId: doc.orgId,
    source: doc.source,
    title: doc.title,
    content: doc.content,
    author: doc.author ?? null,
    email: doc.email ?? null,
    sentiment: doc.sentiment ?? null,
    sentimentScore: doc.sentimentScore ?? null,
    // Items stored before the service computed sentiment carry only what their client provided.
    sentimentSource: doc.sentimentSource ?? 'provided',
    ...(doc.language !== undefined ? { language: doc.language } : {}),
    status: doc.status,
    ...(doc.themeIds ? { themeIds: doc.themeIds } : {}),
    metadata: doc.metadata ?? null,
    publishedDate: doc.publishedDate,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt ?? doc.createdAt,
  };
}

/** The match keys stored beside an item (see shared linkKeys), so links are found through indexes. */
export function feedbackMatchKeys(item: Pick<FeedbackDocument, 'email'>): Pick<FeedbackDocument, 'emailLower' | 'emailDomain'> {
  return { emailLower: item.email?.toLowerCase() ?? null, emailDomain: emailDomainOf(item.email) };
}

const withEmailKey = (record: FeedbackRecord) => ({ ...record, ...feedbackMatchKeys(record), updatedAt: record.createdAt });

/** The item as it will read once stored under `id` (what a created event carries). */
export const itemOf = (id: Types.ObjectId, orgId: string, record: FeedbackRecord): FeedbackItem => toItem({ _id: id, orgId, ...withEmailKey(record) });

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

  get model() {
    return this.records.model;
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
    const doc: FeedbackDocument = { _id: id, orgId, ...withEmailKey(record), ...(webhookEventIds ? { webhookEventIds } : {}) };
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
    return this.records.insertMany(orgId, records.map(withEmailKey));
  }

  /** The organization's item by id, with its recorded webhook event ids (read by `_id` alone). */
  async findForChange(orgId: string, id: string): Promise<ItemForChange | null> {
    const _id = objectIdOrNull(id);
    if (!_id) return null;
    const doc = await this.records.model.findOne({ _id }).lean<FeedbackDocument>();
    if (!doc || doc.orgId !== orgId) return null;
    return { item: toItem(doc), webhookEventIds: doc.webhookEventIds };
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
