import type { BackfillOptions, BackfillResult } from '@fi/shared/database';
import type { SentimentReading } from '../../model/feedbackItem';
import { readFeedback } from './feedbackSentiment';

/** The items without a sentiment, given each a reading (implemented by core/data/sentimentBackfillStore.ts). */
export interface SentimentBackfill {
  backfill(
    orgId: string,
    read: (title: string, content: string) => SentimentReading,
    options: BackfillOptions,
  ): Promise<BackfillResult>;
}

/**
 * Computes the sentiment of an organization's items that have none, with the same reading as new items (language
 * included). A provided sentiment is never overwritten.
 */
export function backfillSentiment(
  store: SentimentBackfill,
  orgId: string,
  options: BackfillOptions,
): Promise<BackfillResult> {
  return store.backfill(
    orgId,
    (title, content) => {
      const { sentiment, score, language, uncertain } = readFeedback(title, content);
      return {
        sentiment,
        sentimentScore: score,
        language,
        withoutSentiment: uncertain ? 'uncertain' : 'unsupported-language',
      };
    },
    options,
  );
}
