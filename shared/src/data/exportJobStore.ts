import { mongo, Types, type Collection } from 'mongoose';
import { INDEX_BUILD_TIME_LIMIT, type Connection } from './mongo';
import type { ExportFormat } from '../export/exportFormats';

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** A record's id as exports see it (the keyset). */
export type RecordId = Types.ObjectId;

export interface ExportJobDocument {
  _id: Types.ObjectId;
  orgId: string;
  resource: string;
  format: ExportFormat;
  /** The validated filter, as the resource's source reads it back. */
  filter: Record<string, unknown>;
  status: ExportStatus;
  /** The secret half of the download token (the other half is the job id); the file is the data it guards. */
  secret: string;
  /**
   * The API key that started it: its link lives only as long as the key (checked with the identity
   * service at each download). Absent on jobs started before links were tied to their keys.
   */
  keyId?: string;
  /** When the snapshot was taken: removals recorded from then on are the export's business. */
  snapshotAt?: Date;
  /** The largest id of the snapshot's second: records created later have larger ids and are left out. */
  bound?: Types.ObjectId;
  /** Records matching at the snapshot, for progress. */
  total?: number;
  /** The last record id written; the next page starts after it. */
  cursor?: Types.ObjectId | null;
  count: number;
  /** File parts written (gzip members, in order); parts from `chunks` on are leftovers of a crashed run. */
  chunks: number;
  bytes: number;
  /** The instance running it (a fence: a run that lost its claim writes nothing more). */
  owner?: string;
  /** Runs that ended without finishing (a process died); past the limit the job fails. */
  attempts: number;
  error?: string;
  createdAt: Date;
  startedAt?: Date;
  finishedAt?: Date;
  expiresAt?: Date;
}

interface ChunkDocument {
  _id: string;
  data: mongo.Binary;
}

interface OrgLockDocument {
  /** `<resource>:<orgId>`: one running export per organization and resource. */
  _id: string;
  jobId: Types.ObjectId;
  owner: string;
  leaseUntil: Date;
}

const chunkId = (jobId: Types.ObjectId, n: number) => `${jobId.toHexString()}:${n}`;
const lockId = (resource: string, orgId: string) => `${resource}:${orgId}`;
const DELETE_BATCH = 100;
const totalOf = (total: number | undefined) => (total === undefined ? {} : { total });

/**
 * Export jobs, their files and the per-organization claims, in the owning service's own database. A file
 * is a series of parts, each a complete gzip member (a series of members is one valid gzip file), stored
 * under `<job>:<n>`: each part is written once, read by its id alone (fast on every MongoDB-compatible
 * server) and streamed one at a time.
 */
export class ExportJobStore {
  private readonly jobs: Collection<ExportJobDocument>;
  private readonly chunks: Collection<ChunkDocument>;
  private readonly locks: Collection<OrgLockDocument>;

  constructor(connection: Connection) {
    this.jobs = connection.collection<ExportJobDocument>('export_jobs');
    this.chunks = connection.collection<ChunkDocument>('export_chunks');
    this.locks = connection.collection<OrgLockDocument>('export_locks');
  }

  async ensureIndexes(): Promise<void> {
    await this.jobs.createIndex({ orgId: 1, resource: 1, createdAt: -1 }, INDEX_BUILD_TIME_LIMIT);
    await this.jobs.createIndex({ status: 1, createdAt: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  async create(job: Omit<ExportJobDocument, '_id'>): Promise<ExportJobDocument> {
    const doc = { ...job, _id: new Types.ObjectId() };
    await this.jobs.insertOne(doc);
    return doc;
  }

  get(id: Types.ObjectId): Promise<ExportJobDocument | null> {
    return this.jobs.findOne({ _id: id });
  }

  pendingCount(orgId: string, resource: string): Promise<number> {
    return this.jobs.countDocuments({ orgId, resource, status: { $in: ['queued', 'running'] } });
  }

  recent(orgId: string, resource: string, limit: number): Promise<ExportJobDocument[]> {
    return this.jobs.find({ orgId, resource }).sort({ createdAt: -1 }).limit(limit).toArray();
  }

  /** Queued and running jobs, oldest first: what an instance may take (bounded). */
  claimable(limit: number): Promise<ExportJobDocument[]> {
    return this.jobs
      .find({ status: { $in: ['queued', 'running'] } })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  /**
   * Takes the organization's export claim for `job` when it is free, expired, or already this job's
   * (a run resuming after its instance died); false while another live run holds it. Atomic: the claim
   * is one document whose id is the organization.
   */
  async acquire(job: ExportJobDocument, owner: string, leaseMs: number, now = new Date()): Promise<boolean> {
    try {
      await this.locks.updateOne(
        { _id: lockId(job.resource, job.orgId), $or: [{ leaseUntil: { $lt: now } }, { jobId: job._id, owner }] },
        { $set: { jobId: job._id, owner, leaseUntil: new Date(now.getTime() + leaseMs) } },
        { upsert: true },
      );
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  /** Renews the claim; false when it was lost (another instance took over), and the run must stop. */
  async renew(job: ExportJobDocument, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.locks.updateOne(
      { _id: lockId(job.resource, job.orgId), jobId: job._id, owner },
      { $set: { leaseUntil: new Date(Date.now() + leaseMs) } },
    );
    return result.matchedCount === 1;
  }

  async release(job: ExportJobDocument, owner: string): Promise<void> {
    await this.locks.deleteOne({ _id: lockId(job.resource, job.orgId), jobId: job._id, owner });
  }

  /** Marks the job as run by `owner`; a resumed job counts one more attempt. Null when its state moved on. */
  claim(job: ExportJobDocument, owner: string): Promise<ExportJobDocument | null> {
    const resumed = job.status === 'running';
    return this.jobs.findOneAndUpdate(
      { _id: job._id, status: job.status, attempts: job.attempts },
      {
        $set: { status: 'running', owner, ...(resumed ? {} : { startedAt: new Date() }) },
        $inc: { attempts: resumed ? 1 : 0 },
      },
      { returnDocument: 'after' },
    );
  }

  async setSnapshot(
    job: ExportJobDocument,
    owner: string,
    snapshot: { snapshotAt: Date; bound: Types.ObjectId },
  ): Promise<boolean> {
    const result = await this.jobs.updateOne({ _id: job._id, owner, status: 'running' }, { $set: snapshot });
    return result.matchedCount === 1;
  }

  async putChunk(jobId: Types.ObjectId, n: number, data: Buffer): Promise<void> {
    await this.chunks.replaceOne({ _id: chunkId(jobId, n) }, { data: new mongo.Binary(data) }, { upsert: true });
  }

  /**
   * Records a written part (and the total, once counted): only when the job is still this run's and the
   * part is the next one. The run is the job's only writer while it holds the claim, and writes one
   * update at a time: a server that applies updates as read-and-replace (FerretDB) would otherwise lose one.
   */
  async advance(
    job: ExportJobDocument,
    owner: string,
    n: number,
    progress: { cursor: Types.ObjectId | null; added: number; bytes: number; total?: number },
  ): Promise<boolean> {
    const result = await this.jobs.updateOne(
      { _id: job._id, owner, status: 'running', chunks: n },
      {
        $set: { cursor: progress.cursor, ...totalOf(progress.total) },
        $inc: { chunks: 1, count: progress.added, bytes: progress.bytes },
      },
    );
    return result.matchedCount === 1;
  }

  async finish(
    job: ExportJobDocument,
    owner: string,
    expiresAt: Date,
    total?: number,
  ): Promise<ExportJobDocument | null> {
    return this.jobs.findOneAndUpdate(
      { _id: job._id, owner, status: 'running' },
      { $set: { status: 'done', finishedAt: new Date(), expiresAt, ...totalOf(total) } },
      { returnDocument: 'after' },
    );
  }

  /** Fails the job (when it is still `status`) and deletes its parts; the error is what the client reads. */
  async fail(job: ExportJobDocument, error: string, owner?: string): Promise<ExportJobDocument | null> {
    const failed = await this.jobs.findOneAndUpdate(
      { _id: job._id, status: { $in: ['queued', 'running'] }, ...(owner ? { owner } : {}) },
      { $set: { status: 'failed', error, finishedAt: new Date() } },
      { returnDocument: 'after' },
    );
    if (failed) await this.deleteChunks(failed._id, 0, failed.chunks + 1);
    return failed;
  }

  async readChunk(jobId: Types.ObjectId, n: number): Promise<Buffer | null> {
    const doc = await this.chunks.findOne({ _id: chunkId(jobId, n) });
    return doc ? Buffer.from(doc.data.buffer) : null;
  }

  /** Deletes parts [from, to) by id. */
  async deleteChunks(jobId: Types.ObjectId, from: number, to: number): Promise<void> {
    for (let start = from; start < to; start += DELETE_BATCH) {
      const ids = Array.from({ length: Math.min(DELETE_BATCH, to - start) }, (_, i) => chunkId(jobId, start + i));
      await this.chunks.deleteMany({ _id: { $in: ids } });
    }
  }

  /** Parts from `from` on that a crashed run may have left: it wrote at most one part past its last recorded one. */
  deleteLeftovers(job: ExportJobDocument): Promise<void> {
    return this.deleteChunks(job._id, job.chunks, job.chunks + 1);
  }

  /**
   * Deletes a job and its file; false when it was gone already. A queued or running job is failed first,
   * so a run stops at its next page (a part it writes in that instant is left unreachable: no job names it).
   */
  async remove(job: ExportJobDocument): Promise<boolean> {
    await this.fail(job, 'The export was deleted');
    const removed = await this.jobs.findOneAndDelete({ _id: job._id });
    if (!removed) return false;
    await this.deleteChunks(removed._id, 0, removed.chunks + 1);
    return true;
  }

  /** Finished jobs whose files are due for deletion (bounded). */
  expiredBefore(now: Date, limit: number): Promise<ExportJobDocument[]> {
    return this.jobs
      .find({ status: 'done', expiresAt: { $lt: now } })
      .limit(limit)
      .toArray();
  }

  async markExpired(job: ExportJobDocument): Promise<void> {
    await this.deleteChunks(job._id, 0, job.chunks);
    await this.jobs.updateOne({ _id: job._id, status: 'done' }, { $set: { status: 'expired' } });
  }

  /** Forgets jobs that ended before `before` (their files are gone already). */
  async purgeEnded(before: Date): Promise<void> {
    await this.jobs.deleteMany({ status: { $in: ['failed', 'expired'] }, finishedAt: { $lt: before } });
  }
}
