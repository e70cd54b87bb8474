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
