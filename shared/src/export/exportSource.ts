import type { RecordId } from '../data/exportJobStore';
import type { ExportRow } from './exportFormats';

/** A record read for an export: its id (the keyset) and what the file holds of it. */
export interface ExportRecord {
  _id: RecordId;
  row: ExportRow;
}

/**
 * Export reads run in the background, not for a request: a whole scan of a large organization may take
 * minutes on a server that cannot narrow it (FerretDB), so they get this server-side limit instead of the
 * request limit.
 */
export const EXPORT_READ_TIME_LIMIT_MS = 15 * 60_000;

/** Options of an export's reads: the driver's time limit, per batch for a cursor (not its whole life). */
export const EXPORT_READ_OPTIONS = { timeoutMS: EXPORT_READ_TIME_LIMIT_MS };
export const EXPORT_CURSOR_OPTIONS = { timeoutMS: EXPORT_READ_TIME_LIMIT_MS, timeoutMode: 'iteration' as const };

/**
 * What a service exports of one resource; implemented by the service that owns the records, over its own
 * database. Records are read by `_id` ascending within one organization, bounded by the snapshot's newest id.
 */
export interface ExportSource<F extends Record<string, unknown> = Record<string, unknown>> {
  /** `feedback`, `contacts`, `accounts`: also the download path `/exports/<resource>`. */
  resource: string;
  /** The fields of a row, in file order (the CSV header). */
  columns: readonly string[];
  /** Validates the client's filter (BAD_REQUEST naming the problem); the result is stored with the job. */
  parseFilter(input: unknown): F;
  ensureIndexes(): Promise<void>;
  /** Matching records with _id <= bound created at or before `snapshotAt`. */
  count(orgId: string, filter: F, bound: RecordId, snapshotAt: Date): Promise<number>;
  /**
   * Matching records with after < _id <= bound created at or before `snapshotAt`, ascending, read
   * `batchSize` at a time (closed by `return()`).
   */
  scan(
    orgId: string,
    filter: F,
    after: RecordId | null,
    bound: RecordId,
    snapshotAt: Date,
    batchSize: number,
  ): AsyncIterable<ExportRecord>;
  /**
   * Matching records with after < _id <= upTo created at or before `snapshotAt` and removed since then (as
   * they were just before), for resources whose records can be removed while an export runs.
   */
  removedSince?(
    orgId: string,
    filter: F,
    after: RecordId | null,
    upTo: RecordId,
    snapshotAt: Date,
  ): Promise<ExportRecord[]>;
}
