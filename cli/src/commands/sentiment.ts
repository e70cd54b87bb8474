import { SentimentBackfillStore } from '@fi/feedback/src/data/sentimentBackfillStore';
import { backfillSentiment } from '@fi/feedback/src/domain/sentiment/backfillSentiment';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';
import { progressBar } from '../progress';
import { parseCount } from './seed';

const DEFAULT_BATCH = 500;

/**
 * `sentiment backfill --org ORG [--batch N]`: computes the sentiment of the organization's items that
 * have none. Ctrl-C stops after the batch in progress; running the command again continues.
 */
export async function sentimentCommand(action: string | undefined, org: string | undefined, batch: string | undefined, db: Databases, out: Output) {
  if (action !== 'backfill') throw new UsageError('sentiment takes one action: backfill');
  if (!org) throw new UsageError('sentiment backfill needs --org ORG');
  const batchSize = parseCount('batch', batch, DEFAULT_BATCH);
  if (batchSize < 1 || batchSize > 10_000) throw new UsageError('--batch must be between 1 and 10000');

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  let bar: ReturnType<typeof progressBar> | undefined;
  try {
    const result = await backfillSentiment(new SentimentBackfillStore(db.feedback), org, {
      batchSize,
      signal: stop.signal,
      onProgress: (done, total) => {
        bar ??= progressBar('Computing sentiment', total);
        bar.update(Math.min(done, total));
      },
    });
    bar?.finish();
    const skipped = result.skipped > 0 ? `, ${result.skipped} skipped (given a sentiment meanwhile)` : '';
    if (result.complete) out.info(`Computed the sentiment of ${result.written} of ${result.total} items without one in ${org}${skipped}.`);
    else out.info(`Stopped after ${result.written} of ${result.total} items${skipped}; run the command again to continue.`);
    out.result(JSON.stringify(result));
  } finally {
    process.off('SIGINT', onSignal);
  }
}
