import { backfillSentiment, recountOrganization, SentimentBackfillStore } from '@fi/feedback';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';
import { backfillProgress, parseBatch, untilInterrupted } from './backfillRun';

/**
 * `sentiment backfill --org ORG [--batch N]`: computes the sentiment of the organization's items that
 * have none. Ctrl-C stops after the batch in progress; running the command again continues.
 */
export async function sentimentCommand(
  action: string | undefined,
  org: string | undefined,
  batch: string | undefined,
  db: Databases,
  out: Output,
) {
  if (action !== 'backfill') throw new UsageError('sentiment takes one action: backfill');
  if (!org) throw new UsageError('sentiment backfill needs --org ORG');
  const batchSize = parseBatch(batch);

  const progress = backfillProgress('Computing sentiment');
  const result = await untilInterrupted((signal) =>
    backfillSentiment(new SentimentBackfillStore(db.feedback), org, {
      batchSize,
      signal,
      onProgress: progress.onProgress,
    }),
  ).finally(progress.finish);
  const skipped = result.skipped > 0 ? `, ${result.skipped} skipped (given a sentiment meanwhile)` : '';
  // Sentiments written in bulk move items between counted sentiments: the figures are counted again.
  if (result.written > 0) await recountOrganization(db.feedback, org);
  if (result.complete)
    out.info(`Computed the sentiment of ${result.written} of ${result.total} items without one in ${org}${skipped}.`);
  else
    out.info(`Stopped after ${result.written} of ${result.total} items${skipped}; run the command again to continue.`);
  out.result(JSON.stringify(result));
}
