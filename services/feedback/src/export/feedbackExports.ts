import { type Logger } from '@fi/shared';
import { exportService, publicJob, startExportWorker, type Connection, type ExportConfig } from '@fi/shared/database';
import type { Announcement, FeedbackTombstones } from '../core';
import { exportEvent } from './exportEvents';
import { feedbackExportSource } from './feedbackExport';

/**
 * The feedback service's exports as the API serves them: the operations and the download route. The
 * worker process runs the jobs (startFeedbackExportWorker): a queued job waits for its next poll.
 */
export function feedbackExports(
  connection: Connection,
  tombstones: FeedbackTombstones,
  config: ExportConfig,
  logger: Logger,
) {
  return exportService(connection, feedbackExportSource(connection, tombstones), config, logger);
}

/**
 * The export worker (in the worker process) over live items and the tombstones of items removed while it
 * runs. An export's end is announced through the change stream (export.completed or export.failed).
 */
export function startFeedbackExportWorker(
  connection: Connection,
  tombstones: FeedbackTombstones,
  announce: (event: Announcement) => Promise<void>,
  config: ExportConfig,
  logger: Logger,
) {
  return startExportWorker(connection, feedbackExportSource(connection, tombstones), config, logger, (job) =>
    announce(exportEvent(job.orgId, publicJob(job, config))),
  );
}
