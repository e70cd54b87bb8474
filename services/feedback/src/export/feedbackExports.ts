import { type Logger } from '@fi/shared';
import { publicJob, startExports, type Connection, type ExportConfig } from '@fi/shared/database';
import type { Announcement, FeedbackTombstones } from '../core';
import { exportEvent } from './exportEvents';
import { feedbackExportSource } from './feedbackExport';

/**
 * The feedback service's exports: the worker over live items and the tombstones of items removed while
 * it runs. An export's end is announced through the change stream (export.completed or export.failed).
 */
export function startFeedbackExports(
  connection: Connection,
  tombstones: FeedbackTombstones,
  announce: (event: Announcement) => Promise<void>,
  config: ExportConfig,
  logger: Logger,
) {
  return startExports(connection, feedbackExportSource(connection, tombstones), config, logger, (job) =>
    announce(exportEvent(job.orgId, publicJob(job, config))),
  );
}
