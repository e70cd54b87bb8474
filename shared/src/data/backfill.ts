import type { Types } from 'mongoose';

/** How a resumable backfill runs (the CLI's `sentiment backfill` and `links backfill`). */
export interface BackfillOptions {
  /** Records read per query and written before the next one. */
  batchSize: number;
  /** Called after every batch with the records done so far and the number that needed it at the start. */
  onProgress?: (done: number, total: number) => void;
  /** When aborted, the run stops after the batch in progress; a later run continues from there. */
  signal?: AbortSignal;
}

export interface BackfillResult {
  /** Records that needed the backfill when the run started. */
  total: number;
  /** Records this run wrote. */
  written: number;
  /** Records that got their value from another writer between the read and the write (left as they were). */
  skipped: number;
  /** False when the run was stopped before the end. */
  complete: boolean;
}

/**
 * One backfill as `runKeysetBackfill` drives it: what needs the backfill is read in keyset pages
 * (`_id` after the last one, in `_id` order), and each page is written before the next is read.
 */
export interface KeysetBackfill<R extends { _id: Types.ObjectId }> {
  /** Records that need the backfill now. */
  count(): Promise<number>;
  /** The next `limit` records that need it after `after` (all from the start when null), in `_id` order. */
  next(after: Types.ObjectId | null, limit: number): Promise<R[]>;
  /** Writes a page, each write conditional on the record still needing it; returns how many were written. */
  write(page: R[]): Promise<number>;
}

/**
 * Runs a resumable backfill. No read outlives one page: one cursor over the run would not do, because
 * the driver's time limit (`timeoutMS`) covers a cursor's whole life, so a run longer than the limit
 * would fail midway. Resumable without a checkpoint: written records no longer need the backfill, so a
 * stopped run is continued by running it again.
 */
export async function runKeysetBackfill<R extends { _id: Types.ObjectId }>(
  backfill: KeysetBackfill<R>,
  options: BackfillOptions,
): Promise<BackfillResult> {
  const total = await backfill.count();
  let written = 0;
  let skipped = 0;
  let after: Types.ObjectId | null = null;
  options.onProgress?.(0, total);
  for (;;) {
    const page = await backfill.next(after, options.batchSize);
    if (page.length === 0) return { total, written, skipped, complete: true };
    const count = await backfill.write(page);
    written += count;
    skipped += page.length - count;
    after = page[page.length - 1]._id;
    options.onProgress?.(written + skipped, total);
    if (options.signal?.aborted) return { total, written, skipped, complete: false };
  }
}
