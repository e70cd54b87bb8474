import type { BackfillOptions } from '@fi/shared/database';
import { UsageError } from '../output';
import { progressBar } from '../progress';
import { parseCount } from './seed';

const DEFAULT_BATCH = 500;

/** `--batch N` of a backfill command: records read per query and written before the next one. */
export function parseBatch(batch: string | undefined): number {
  const batchSize = parseCount('batch', batch, DEFAULT_BATCH);
  if (batchSize < 1 || batchSize > 10_000) throw new UsageError('--batch must be between 1 and 10000');
  return batchSize;
}

/**
 * Runs a backfill with a signal that Ctrl-C raises: the run stops after the batch in progress, and
 * running the command again continues.
 */
export async function untilInterrupted<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  try {
    return await run(stop.signal);
  } finally {
    process.off('SIGINT', onSignal);
  }
}

/** A progress bar that appears once the backfill knows its total. */
export function backfillProgress(label: string): {
  onProgress: NonNullable<BackfillOptions['onProgress']>;
  finish(): void;
} {
  let bar: ReturnType<typeof progressBar> | undefined;
  return {
    onProgress: (done, total) => {
      bar ??= progressBar(label, total);
      bar.update(Math.min(done, total));
    },
    finish: () => bar?.finish(),
  };
}
