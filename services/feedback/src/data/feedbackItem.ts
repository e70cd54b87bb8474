import { Types } from 'mongoose';
import { emailDomainOf } from '@fi/shared';
import type { CountedItem } from '../domain/countDelta';
import type { FeedbackDocument } from './feedbackModel';

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

/** The stored document of an item, the inverse of toItem: fields the item reads as null are absent. */
export function documentOf(item: FeedbackItem): FeedbackDocument {
  const { id, author, email, sentiment, sentimentScore, metadata, ...rest } = item;
  return {
    _id: new Types.ObjectId(id),
    ...rest,
    ...(author !== null ? { author } : {}),
    ...(email !== null ? { email } : {}),
    ...(sentiment !== null ? { sentiment } : {}),
    ...(sentimentScore !== null ? { sentimentScore } : {}),
    ...(metadata !== null ? { metadata } : {}),
    ...feedbackMatchKeys({ email: email ?? undefined }),
  };
}

/** The match keys stored beside an item (see shared linkKeys), so links are found through indexes. */
export function feedbackMatchKeys(
  item: Pick<FeedbackDocument, 'email'>,
): Pick<FeedbackDocument, 'emailLower' | 'emailDomain'> {
  return { emailLower: item.email?.toLowerCase() ?? null, emailDomain: emailDomainOf(item.email) };
}

/** What is stored beside a record: its match keys, and updatedAt (a new item was last changed when created). */
export const storedFields = (record: FeedbackRecord) => ({
  ...record,
  ...feedbackMatchKeys(record),
  updatedAt: record.createdAt,
});

/** The item as it will read once stored under `id` (what a created event carries). */
export const itemOf = (id: string, orgId: string, record: FeedbackRecord): FeedbackItem =>
  toItem({ _id: new Types.ObjectId(id), orgId, ...storedFields(record) });

/** What the kept counts look at of an item (its match keys derived as when it was stored). */
export const countedOf = (item: FeedbackItem): CountedItem => ({
  orgId: item.orgId,
  source: item.source,
  status: item.status,
  sentiment: item.sentiment,
  publishedDate: item.publishedDate,
  ...feedbackMatchKeys({ email: item.email ?? undefined }),
});
