import type { FeedbackItem } from './data/feedbackItem';
import type { FeedbackRepository } from './data/feedbackRepository';
import { readLanguage } from './domain/language/detectLanguage';
import { feedbackText } from './domain/sentiment/analyzeSentiment';
import type { OrgSimilarity } from './similarity/orgSimilarity';
import { similarFeedback } from './similarity/similarFeedback';

/** The computed fields of a feedback item, the same in the public and the admin schema. */
export function feedbackItemFields(deps: { similarity: OrgSimilarity; repository: FeedbackRepository }) {
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
