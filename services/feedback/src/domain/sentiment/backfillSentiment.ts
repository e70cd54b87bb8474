import type { Types } from 'mongoose';
import type { BackfillOptions, BackfillResult } from '@fi/shared';
import type { SentimentBackfillStore } from '../../data/sentimentBackfillStore';
import { analyzeSentiment } from './analyzeSentiment';

/**
 * Computes the sentiment of an organization's items that have none, with the same rule as new items.
 * Resumable without a checkpoint: the items it writes leave the set it reads, so a stopped run is
 * continued by running it again. A provided sentiment is never overwritten.
 */
export async function backfillSentiment(store: SentimentBackfillStore, orgId: string, options: BackfillOptions): Promise<BackfillResult> {
  const total = await store.countWithout(orgId);
  let written = 0;
  let skipped = 0;
  let after: Types.ObjectId | null = null;
  options.onProgress?.(0, total);
  for (;;) {
    const batch = await store.nextWithout(orgId, after, options.batchSize);
    if (batch.length === 0) return { total, written, skipped, complete: true };
    const computed = batch.map(({ _id, title, content }) => {
      const { sentiment, score } = analyzeSentiment(title, content);
      return { _id, sentiment, sentimentScore: score };
    });
    const count = await store.writeComputed(computed);
    written += count;
    skipped += batch.length - count;
    after = batch[batch.length - 1]._id;
    options.onProgress?.(written + skipped, total);
    if (options.signal?.aborted) return { total, written, skipped, complete: false };
  }
}
