import { feedbackText, readLanguage, type FeedbackItem } from './core';
import { similarFeedback, type OrgSimilarity } from './similarity';

/** The computed fields of a feedback item, the same in the public and the admin schema. */
export function feedbackItemFields(deps: {
  similarity: OrgSimilarity;
  items: { findAmong(orgId: string, ids: string[]): Promise<FeedbackItem[]> };
}) {
  return {
    // Idempotent replays answer with the item as first stored, which may predate updatedAt.
    updatedAt: (item: FeedbackItem) => item.updatedAt ?? item.createdAt,
    // The same for items replayed from before computed sentiment: what they carry was provided.
    sentimentScore: (item: FeedbackItem) => item.sentimentScore ?? null,
    sentimentSource: (item: FeedbackItem) => item.sentimentSource ?? 'provided',
    similar: (item: FeedbackItem, args: { take?: number | null }) => similarFeedback(deps, item, args.take ?? 5),
    // Items stored before the service read languages: read on the fly (well under a millisecond).
    language: (item: FeedbackItem) =>
      item.language !== undefined ? item.language : readLanguage(feedbackText(item.title, item.content)).language,
  };
}
