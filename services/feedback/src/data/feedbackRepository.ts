import { Types, type Connection } from 'mongoose';
import { emailDomainOf, OrgScopedRepository } from '@fi/shared';
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
  status: string;
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
    status: doc.status,
    metadata: doc.metadata ?? null,
    publishedDate: doc.publishedDate,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt ?? doc.createdAt,
  };
}

const withEmailKey = (record: FeedbackRecord) => ({
  ...record,
  emailLower: record.email?.toLowerCase(),
  emailDomain: emailDomainOf(record.email),
  updatedAt: record.createdAt,
});

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

  async create(orgId: string, record: FeedbackRecord): Promise<FeedbackItem> {
    const doc: FeedbackDocument = { _id: new Types.ObjectId(), orgId, ...withEmailKey(record) };
    await this.records.model.collection.insertOne(doc);
    return toItem(doc);
  }

  /** Inserts the item under a chosen id unless it exists already; either way returns the stored item. */
  async createOnce(orgId: string, id: Types.ObjectId, record: FeedbackRecord): Promise<FeedbackItem> {
    const doc: FeedbackDocument = { _id: id, orgId, ...withEmailKey(record) };
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

  /** True when this call deleted the item; false when the organization has no such item. */
  remove(orgId: string, id: string): Promise<boolean> {
    return this.records.remove(orgId, id);
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
