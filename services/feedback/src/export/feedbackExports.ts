import type { Logger } from '@fi/shared';
import { publicJob, startExports, type Connection } from '@fi/shared/database';
import type { FeedbackConfig } from '../config';
import type { FeedbackTombstones } from '../data/feedbackTombstones';
import { exportEvent, type WebhookEvent } from '../webhooks/events';
import { feedbackExportSource } from './feedbackExport';

/**
 * The feedback service's exports: the worker over live items and the tombstones of items removed while
 * it runs. An export's end is announced as an export.completed or export.failed webhook event.
 */
export function startFeedbackExports(
  connection: Connection,
  tombstones: FeedbackTombstones,
  announce: (event: WebhookEvent) => Promise<void>,
  config: FeedbackConfig,
  logger: Logger,
) {
  return startExports(connection, feedbackExportSource(connection, tombstones), config, logger, (job) =>
    announce(exportEvent(job.orgId, publicJob(job, config))),
  );
}
