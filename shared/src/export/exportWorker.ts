import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { ConfigOf } from '../config';
import type { Logger } from '../logger';
import type { exportConfigSchema } from '../config';
import { formatRows } from './exportFormats';
import type { ExportJobDocument, ExportJobStore, RecordId } from '../data/exportJobStore';
import { idBoundAt } from '../data/objectId';
import type { ExportRecord, ExportSource } from './exportSource';
import { isDependencyUnavailable, isQueryTimeout } from '../unavailable';

const gzip = promisify(gzipCallback);

/** The export settings, and the database time limit (how long a change may take to land: changesCursor). */
export type ExportConfig = ConfigOf<typeof exportConfigSchema> & {
  mongodbMaxTimeMs: number;
  changesClockMarginMs: number;
};

/** Runs that ended without finishing (a process died, the database failed) before the job is failed instead of resumed. */
export const MAX_EXPORT_ATTEMPTS = 3;
const CLAIM_CANDIDATES = 50;
/** Expired files are looked for every this many polls (at most once a minute). */
const SWEEP_EVERY_POLLS = 10;
const MAX_SWEEP_INTERVAL_MS = 60_000;
const ENDED_JOB_KEPT_MS = 30 * 86_400_000;

export const INTERRUPTED_TOO_OFTEN = `The export was interrupted ${MAX_EXPORT_ATTEMPTS} times (the service restarted or its database failed while running it) and was stopped; start a new export`;
const INTERNAL_FAILURE =
  'The export failed because of an internal error; start a new export (the error is logged with the job id)';

/** The database failed the work, not the export's own logic: the driver's and the server's errors. */
function isDatabaseFault(error: unknown): boolean {
  return (
    isDependencyUnavailable(error) ||
    isQueryTimeout(error) ||
    (error instanceof Error && error.name.startsWith('Mongo'))
  );
}

/** The run lost its claim (its lease expired and another instance resumed the job): it stops writing. */
class ClaimLost extends Error {}

/**
 * Takes queued exports (oldest first, at most one running per organization and resource, at most
 * `exportConcurrency` on this instance), runs each page by page, and resumes runs whose instance died.
 */
export class ExportWorker {
  private readonly owner = randomUUID();
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private lastSweep = 0;

  constructor(
    private readonly store: ExportJobStore,
    private readonly source: ExportSource,
    private readonly config: ExportConfig,
    private readonly logger: Logger,
    /** Called once a job is done or failed (webhook events). Never fails the job. */
    private readonly onFinished: (job: ExportJobDocument) => Promise<void> = async () => undefined,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.config.exportPollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for work now (a job was queued, or a run ended). */
  wake(): void {
    if (this.closed) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'export worker round failed'))
      .finally(() => {
        this.ticking = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    // Runs stop at their next page; their claims lapse and another instance (or this one restarted) resumes them.
    await Promise.all(this.running.values());
  }

  private async tick(): Promise<void> {
    if (Date.now() - this.lastSweep > Math.min(MAX_SWEEP_INTERVAL_MS, this.config.exportPollMs * SWEEP_EVERY_POLLS)) {
      this.lastSweep = Date.now();
      await this.sweep();
    }
    if (this.running.size >= this.config.exportConcurrency) return;
    // Organizations whose oldest candidate could not be claimed in this round: their newer ones wait too,
    // or one could start in the moment the running export lets go of the claim, ahead of an older one.
    const waiting = new Set<string>();
    for (const candidate of await this.store.claimable(CLAIM_CANDIDATES)) {
      if (this.closed || this.running.size >= this.config.exportConcurrency) return;
      if (candidate.resource !== this.source.resource || waiting.has(candidate.orgId)) continue;
      if (
        this.running.has(candidate._id.toHexString()) ||
        !(await this.store.acquire(candidate, this.owner, this.config.exportLeaseMs))
      ) {
        waiting.add(candidate.orgId);
        continue;
      }
      const job = await this.store.claim(candidate, this.owner);
      if (!job) {
        await this.store.release(candidate, this.owner);
        continue;
      }
      if (job.attempts >= MAX_EXPORT_ATTEMPTS) {
        await this.end(await this.store.fail(job, INTERRUPTED_TOO_OFTEN, this.owner), job);
        continue;
      }
      const id = job._id.toHexString();
      this.running.set(
        id,
        this.run(job).finally(() => {
          this.running.delete(id);
          this.wake();
        }),
      );
    }
  }

  /** Deletes the files of expired exports and forgets long-ended jobs. */
  private async sweep(): Promise<void> {
    for (const job of await this.store.expiredBefore(new Date(), 100)) {
      await this.store.markExpired(job);
      this.logger.info({ exportId: job._id.toHexString(), orgId: job.orgId }, 'export expired, file deleted');
    }
    await this.store.purgeEnded(new Date(Date.now() - ENDED_JOB_KEPT_MS));
  }

  private async run(job: ExportJobDocument): Promise<void> {
    const log = this.logger.child({ exportId: job._id.toHexString(), orgId: job.orgId, resource: job.resource });
    let lost = false;
    const renewal = setInterval(
      () => {
        this.store
          .renew(job, this.owner, this.config.exportLeaseMs)
          .then((held) => (lost ||= !held))
          .catch((error: unknown) => log.warn({ err: error }, 'export claim renewal failed'));
      },
      Math.max(200, Math.floor(this.config.exportLeaseMs / 3)),
    );
    const check = () => {
      if (lost || this.closed) throw new ClaimLost();
    };
    try {
      log.info({ attempt: job.attempts + 1, resumeAfter: job.cursor?.toHexString() ?? null }, 'export running');
      const finished = await this.write(job, check);
      log.info({ count: finished?.count, bytes: finished?.bytes }, 'export done');
      await this.end(finished, job);
    } catch (error) {
      if (error instanceof ClaimLost) {
        log.info('export run stopped; it resumes where it left off');
        // Shutting down: give the claim back so another instance resumes at once instead of after the lease.
        if (!lost) await this.store.release(job, this.owner).catch(() => undefined);
        return;
      }
      if (isDatabaseFault(error)) {
        // A page the database could not read or write in time (busy, briefly away) costs the run, not the
        // job: it resumes after its last written page, as after a restart, and counts one attempt.
        log.warn(
          { err: error, attempt: job.attempts + 1 },
          'export interrupted by the database; it resumes where it left off',
        );
        await this.store.release(job, this.owner).catch(() => undefined);
        return;
      }
      log.error({ err: error }, 'export failed');
      await this.end(await this.store.fail(job, INTERNAL_FAILURE, this.owner).catch(() => null), job);
    } finally {
      clearInterval(renewal);
    }
  }

  /** The records matching at the snapshot (for progress); undefined when counting failed. */
  private async countTotal(job: ExportJobDocument): Promise<number | undefined> {
    try {
      return await this.source.count(job.orgId, job.filter, job.bound as RecordId, job.snapshotAt as Date);
    } catch (error) {
      this.logger.warn(
        { err: error, exportId: job._id.toHexString() },
        'export total not counted; progress stays unknown',
      );
      return undefined;
    }
  }

  private async end(ended: ExportJobDocument | null, job: ExportJobDocument): Promise<void> {
    await this.store.release(job, this.owner).catch(() => undefined);
    if (!ended) return;
    await this.onFinished(ended).catch((error: unknown) =>
      this.logger.warn({ err: error, exportId: job._id.toHexString() }, 'export event not recorded'),
    );
  }

  /**
   * Writes every record that matched at the snapshot exactly once: one cursor by ascending id up to the
   * snapshot's newest id, cut into pages, each merged with the records of its id range removed since the
   * snapshot (a removal is recorded before the record goes, so a record the cursor no longer returned is
   * in that list; one it did return is not added twice).
   * Each page is one gzip member, recorded with the cursor after it in one conditional write.
   */
  private async write(claimed: ExportJobDocument, check: () => void): Promise<ExportJobDocument | null> {
    const { source, store } = this;
    let job = claimed;
    if (job.snapshotAt === undefined) {
      const snapshotAt = new Date();
      const bound = idBoundAt(snapshotAt);
      check();
      if (!(await store.setSnapshot(job, this.owner, { snapshotAt, bound }))) throw new ClaimLost();
      job = { ...job, snapshotAt, bound };
    }
    // Counted beside the scan (a server that cannot narrow the count, FerretDB, scans for it), so the export
    // does not wait for it to start; the total is recorded with the first part written after it is in.
    let total: number | undefined;
    let totalRecorded = job.total !== undefined;
    const counting = totalRecorded ? Promise.resolve() : this.countTotal(job).then((counted) => (total = counted));
    await store.deleteLeftovers(job);
    let after = job.cursor ?? null;
    let n = job.chunks;
    const bound = job.bound as RecordId;
    const pageSize = this.config.exportPageSize;
    const snapshotAt = job.snapshotAt as Date;
    const records = source.scan(job.orgId, job.filter, after, bound, snapshotAt, pageSize)[Symbol.asyncIterator]();
    try {
      for (let more = true; ;) {
        check();
        const page: ExportRecord[] = [];
        while (more && page.length < pageSize) {
          const next = await records.next();
          if (next.done) more = false;
          else page.push(next.value);
        }
        const upTo = more ? page[page.length - 1]._id : bound;
        const removed = source.removedSince
          ? await source.removedSince(job.orgId, job.filter, after, upTo, snapshotAt)
          : [];
        const rows = mergeById(page, removed);
        const text = formatRows(job.format, source.columns, rows, n === 0);
        // An empty file is still one gzip member (a CSV header or nothing), so every download is a valid gzip file.
        if (text.length > 0 || n === 0) {
          const data = await gzip(text);
          check();
          await store.putChunk(job._id, n, data);
          const newTotal = totalRecorded ? undefined : total;
          if (
            !(await store.advance(job, this.owner, n, {
              cursor: upTo,
              added: rows.length,
              bytes: data.length,
              total: newTotal,
            }))
          )
            throw new ClaimLost();
          totalRecorded ||= newTotal !== undefined;
          n += 1;
        }
        if (!more) break;
        after = upTo;
      }
    } finally {
      await records.return?.();
    }
    await counting;
    check();
    return store.finish(
      job,
      this.owner,
      new Date(Date.now() + this.config.exportRetentionHours * 3_600_000),
      totalRecorded ? undefined : total,
    );
  }
}

/** The page with the removed records it did not see, in id order (each id once). */
export function mergeById(page: ExportRecord[], removed: ExportRecord[]): ExportRecord['row'][] {
  if (removed.length === 0) return page.map((record) => record.row);
  const seen = new Set(page.map((record) => record._id.toHexString()));
  const merged = [...page, ...removed.filter((record) => !seen.has(record._id.toHexString()))];
  merged.sort((a, b) => a._id.toHexString().localeCompare(b._id.toHexString()));
  return merged.map((record) => record.row);
}
