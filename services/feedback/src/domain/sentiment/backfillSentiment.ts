import type { SentimentBackfillStore } from '../../data/sentimentBackfillStore';
import { analyzeSentiment } from './analyzeSentiment';

export interface BackfillOptions {
  /** Items read and written per round trip. */
  batchSize: number;
  /** Called after every batch with the items done so far and the number that had no sentiment at the start. */
  onProgress?: (done: number, total: number) => void;
  /** When aborted, the run stops after the batch in progress; a later run continues from there. */
  signal?: AbortSignal;
}

export interface BackfillResult {
  /** Items without a sentiment when the run started. */
  total: number;
  /** Items this run gave a computed sentiment. */
  written: number;
  /** Items that got a sentiment from elsewhere between the read and the write (left as they were). */
  skipped: number;
  /** False when the run was stopped before the end. */
  complete: boolean;
}

/**
 * Computes the sentiment of an organization's items that have none, with the same rule as new items.
 * Resumable without a checkpoint: the items it writes leave the set it reads, so a stopped run is
 * continued by running it again. A provided sentiment is never overwritten.
 */
export async function backfillSentiment(store: SentimentBackfillStore, orgId: string, options: BackfillOptions): Promise<BackfillResult> {
  const total = await store.countWithout(orgId);
  let written = 0;
  let skipped = 0;
  options.onProgress?.(0, total);
  for await (const batch of store.batchesWithout(orgId, options.batchSize)) {
    const computed = batch.map(({ _id, title, content }) => {
      const { sentiment, score } = analyzeSentiment(title, content);
      return { _id, sentiment, sentimentScore: score };
    });
    const count = await store.writeComputed(computed);
    written += count;
    skipped += batch.length - count;
    options.onProgress?.(written + skipped, total);
    if (options.signal?.aborted) return { total, written, skipped, complete: false };
  }
  return { total, written, skipped, complete: true };
}
