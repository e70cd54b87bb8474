import { Types } from 'mongoose';
import { feedbackMatchKeys, type FeedbackItem, type FeedbackRecord } from '../model/feedbackItem';
import type { FeedbackDocument } from './feedbackModel';

/** The item a stored document holds (the domain never sees the document). */
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
    ...(doc.themeMatches?.length ? { themeMatches: doc.themeMatches } : {}),
    metadata: doc.metadata ?? null,
    ...(doc.externalId !== undefined ? { externalId: doc.externalId } : {}),
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
    ...feedbackMatchKeys(email),
  };
}

/** What is stored beside a record: its match keys, and updatedAt (a new item was last changed when created). */
export const storedFields = (record: FeedbackRecord) => ({
  ...record,
  ...feedbackMatchKeys(record.email),
  updatedAt: record.createdAt,
});
