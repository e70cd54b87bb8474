import { publicJob, startExports, type Connection, type Logger } from '@fi/shared';
import type { FeedbackConfig } from '../config';
import { exportEvent, type WebhookEvent } from '../webhooks/events';
import type { ChangeEvents } from '../domain/changeEvents';
import { feedbackExportSource } from './feedbackExport';
import { RemovedFeedbackLog } from '../data/removedFeedbackLog';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The feedback service's exportJobs: the worker, and the change events wrapped so that every removal is
 * logged (before the item goes) for the exports running while it happens. An export's end is announced
 * as an export.completed or export.failed webhook event.
 */
export async function startFeedbackExports(
  connection: Connection,
  webhooks: { events: ChangeEvents; announce(event: WebhookEvent): Promise<void> },
  config: FeedbackConfig,
  logger: Logger,
) {
  const removals = new RemovedFeedbackLog(connection);
  const exportJobs = await startExports(connection, feedbackExportSource(connection, removals), config, logger, (job) =>
    webhooks.announce(exportEvent(job.orgId, publicJob(job, config.exportPublicUrl))),
  );
  const purge = () => removals.purge().catch((error: unknown) => logger.warn({ err: error }, 'removed-feedback log purge failed'));
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
  purgeTimer.unref();
  const events: ChangeEvents = {
    ...webhooks.events,
    async record(change) {
      if (change.type === 'feedback.deleted' && change.data && 'item' in change.data) await removals.record({ ...change.data.item, orgId: change.orgId });
      return webhooks.events.record(change);
    },
  };
  return {
    events,
    operations: exportJobs.operations,
    routes: exportJobs.routes,
    close: async () => {
      clearInterval(purgeTimer);
      await exportJobs.close();
    },
  };
}
