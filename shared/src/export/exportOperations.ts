import { randomBytes } from 'node:crypto';
import { appError, badRequest, ErrorCode, notFound } from '../errors';
import { INTEGRATION_MANAGERS, requireMemberRole } from '../auth/memberAccess';
import type { SubgraphContext } from '../subgraph';
import { objectIdOrNull } from '../data/objectId';
import { parseExportFormat } from './exportFormats';
import type { ExportJobDocument, ExportJobStore, ExportStatus } from '../data/exportJobStore';
import type { ExportSource } from './exportSource';
import { changesCursorAt, changesSettleMs } from '../changes/changeFeed';
import type { ExportConfig } from './exportWorker';

export const EXPORT_NOT_FOUND = 'Export not found';
export const MAX_LISTED_EXPORTS = 50;
export const ONLY_MANAGERS_DELETE_EXPORTS = 'Only owners and admins can delete exports';

/** What a client reads of a job (the ExportJob type of each service's SDL). */
export interface PublicExportJob {
  id: string;
  resource: string;
  format: string;
  status: ExportStatus;
  progress: number;
  count: number;
  total: number | null;
  url: string | null;
  expiresAt: Date | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  changesCursor: string | null;
}

/** The download token: the job id (to find it by its key) and a 256-bit secret, compared in constant time. */
export const downloadToken = (job: Pick<ExportJobDocument, '_id' | 'secret'>) =>
  `${job._id.toHexString()}.${job.secret}`;

export function publicJob(job: ExportJobDocument, config: ExportConfig): PublicExportJob {
  const done = job.status === 'done';
  const publicUrl = config.exportPublicUrl;
  const total = job.total ?? null;
  return {
    id: job._id.toHexString(),
    resource: job.resource,
    format: job.format,
    status: job.status,
    // Below 1 until done: records created into the filter while it runs can make count pass total.
    progress: done ? 1 : total ? Math.min(0.99, job.count / total) : 0,
    count: job.count,
    total,
    url: done ? `${publicUrl.replace(/\/+$/, '')}/exports/${job.resource}?token=${downloadToken(job)}` : null,
    expiresAt: job.expiresAt ?? null,
    error: job.error ?? null,
    createdAt: job.createdAt,
    startedAt: job.startedAt ?? null,
    finishedAt: job.finishedAt ?? null,
    changesCursor: job.snapshotAt ? changesCursorAt(job.resource, job.snapshotAt, changesSettleMs(config)) : null,
  };
}

/** The three operations of a resource's export, as each owning service's resolvers call them. */
export function exportOperations(store: ExportJobStore, source: ExportSource, config: ExportConfig, wake: () => void) {
  return {
    async start(
      ctx: SubgraphContext,
      args: { apiKey: string; format?: string | null; filter?: unknown },
    ): Promise<PublicExportJob> {
      // Read-only keys may export: an export reads what the key may already read.
      const caller = await ctx.auth.require(args.apiKey);
      const format = parseExportFormat(args.format);
      const filter = source.parseFilter(args.filter ?? {});
      const pending = await store.pendingCount(caller.orgId, source.resource);
      if (pending >= config.exportMaxPending) {
        throw appError(
          ErrorCode.RATE_LIMITED,
          `The organization has ${pending} ${source.resource} exports queued or running (at most ${config.exportMaxPending}); wait for one to finish`,
          { pending, max: config.exportMaxPending },
        );
      }
      const job = await store.create({
        orgId: caller.orgId,
        resource: source.resource,
        format,
        filter,
        status: 'queued',
        secret: randomBytes(32).toString('base64url'),
        keyId: caller.keyId,
        count: 0,
        chunks: 0,
        bytes: 0,
        attempts: 0,
        createdAt: new Date(),
      });
      ctx.logger.info(
        { exportId: job._id.toHexString(), orgId: caller.orgId, resource: source.resource, format },
        'export queued',
      );
      wake();
      return publicJob(job, config);
    },
    async get(ctx: SubgraphContext, args: { apiKey: string; id: string }): Promise<PublicExportJob> {
      const caller = await ctx.auth.require(args.apiKey);
      const id = objectIdOrNull(args.id);
      const job = id ? await store.get(id) : null;
      if (!job || job.orgId !== caller.orgId || job.resource !== source.resource) throw notFound(EXPORT_NOT_FOUND);
      return publicJob(job, config);
    },
    async list(ctx: SubgraphContext, args: { apiKey: string; take?: number | null }): Promise<PublicExportJob[]> {
      const caller = await ctx.auth.require(args.apiKey);
      const take = args.take ?? 20;
      if (take < 0 || take > MAX_LISTED_EXPORTS) {
        throw badRequest(`take must be between 0 and ${MAX_LISTED_EXPORTS} (got ${take})`, {
          argument: 'take',
          min: 0,
          max: MAX_LISTED_EXPORTS,
        });
      }
      const jobs = take === 0 ? [] : await store.recent(caller.orgId, source.resource, take);
      return jobs.map((job) => publicJob(job, config));
    },
    /**
     * The admin API's deletion (owners and admins, as for what carries data elsewhere): the job, its file
     * and its link go; a running export stops.
     */
    async remove(ctx: SubgraphContext, args: { id: string }): Promise<boolean> {
      const member = requireMemberRole(ctx.auth, INTEGRATION_MANAGERS, ONLY_MANAGERS_DELETE_EXPORTS);
      const id = objectIdOrNull(args.id);
      const job = id ? await store.get(id) : null;
      if (!job || job.orgId !== member.orgId || job.resource !== source.resource) throw notFound(EXPORT_NOT_FOUND);
      if (!(await store.remove(job))) throw notFound(EXPORT_NOT_FOUND);
      ctx.logger.info(
        { exportId: job._id.toHexString(), orgId: job.orgId, resource: job.resource, memberId: member.ref },
        'export deleted',
      );
      return true;
    },
  };
}
