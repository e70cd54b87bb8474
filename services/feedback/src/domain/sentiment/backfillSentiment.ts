import { runKeysetBackfill, type BackfillOptions, type BackfillResult } from '@fi/shared/database';
import type { SentimentBackfillStore } from '../../data/sentimentBackfillStore';
import { readFeedback } from './feedbackSentiment';

/**
 * Computes the sentiment of an organization's items that have none, with the same reading as new items (language included)
 * (see `runKeysetBackfill` for how it reads and resumes). A provided sentiment is never overwritten.
 */
export function backfillSentiment(
  store: SentimentBackfillStore,
  orgId: string,
  options: BackfillOptions,
): Promise<BackfillResult> {
  return runKeysetBackfill(
    {
      count: () => store.countWithout(orgId),
      next: (after, limit) => store.nextWithout(orgId, after, limit),
      write: (page) =>
        store.writeComputed(
          page.map(({ _id, title, content }) => {
            const { sentiment, score, language, uncertain } = readFeedback(title, content);
            return {
              _id,
              sentiment,
              sentimentScore: score,
              language,
              withoutSentiment: uncertain ? ('uncertain' as const) : ('unsupported-language' as const),
            };
          }),
        ),
    },
    options,
  );
}
