import type { Logger } from '@fi/shared';
import { startWorker, type Connection } from '@fi/shared/database';
import type { Registry } from 'prom-client';
import { startModelFeature } from './ai';
import { alertChannels } from './alertChannels';
import {
  alertDeliverer,
  alertSources,
  AlertStore,
  integrationsActivity,
  startAlertDetector,
  startDigestWorker,
} from './alerts';
import { changeStream, ChangeEvidenceStore, ChangeOutbox, ChangeVerdicts, startChangeRelay } from './changes';
import type { FeedbackWorkerConfig } from './config';
import { CountStore, FeedbackRepository, FeedbackTombstones, IdempotencyStore } from './core';
import { startFeedbackExportWorker } from './export';
import { InsightsStore } from './insights';
import { startSearchIndexer } from './search';
import { SearchIndexStore } from './searchIndex';
import { startThemeWorker, ThemeStore } from './themes';
import { startWebhookDispatcher, webhookEndpoints, webhookListener } from './webhooks';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface WorkerOptions {
  /** The alert detector's now: tests move it to another day instead of waiting for one. */
  clock?: () => Date;
}

/**
 * The feedback service's worker process (src/worker.ts): the background work, with its own probes and
 * metrics on its own port. The API's processes only serve; what they leave to the background (open changes,
 * queued exports and deliveries, new items to index, changed days for themes) is in the database, so the
 * work waits while no worker runs and is done once one is back. Several workers may run: what must not run
 * twice is claimed in the database (the deliveries' and the exports' leases, the themes' run lease, the
 * search index's organization leases and block claims), and the relay's hand-over is idempotent.
 */
export function startFeedbackWorker(config: FeedbackWorkerConfig, logger: Logger, options: WorkerOptions = {}) {
  return startWorker(
    {
      name: 'feedback-worker',
      setUp: (connection, registry) => startBackgroundWork(connection, registry, config, logger, options),
    },
    config,
    logger,
  );
}

/**
 * The background work: the change stream's relay and the webhook dispatcher it feeds, the export worker,
 * the theme computation, the alert detector, the search indexer, and the purges of what is kept for a while (idempotency keys,
 * tombstones, closed changes, webhook history). Nothing here answers a request.
 */
async function startBackgroundWork(
  connection: Connection,
  registry: Registry,
  config: FeedbackWorkerConfig,
  logger: Logger,
  options: WorkerOptions,
) {
  const repository = new FeedbackRepository(connection);
  const counts = new CountStore(connection);
  const outbox = new ChangeOutbox(connection);
  const idempotency = new IdempotencyStore(connection);
  const tombstones = new FeedbackTombstones(connection);
  const themes = new ThemeStore(connection);
  const webhooks = webhookEndpoints(connection, config, () => dispatcher.wake());
  const alerts = new AlertStore(connection);
  await Promise.all([
    alerts.ensureIndexes(),
    repository.ensureIndexes(),
    outbox.ensureIndexes(),
    idempotency.ensureIndexes(),
    tombstones.ensureIndexes(),
    themes.ensureIndexes(),
    webhooks.ensureIndexes(),
  ]);

  const purge = () => {
    const failed = (what: string) => (error: unknown) => logger.warn({ err: error }, `${what} purge failed`);
    idempotency.purgeExpired().catch(failed('idempotency'));
    tombstones.purge().catch(failed('tombstone'));
    outbox.purgeClosed().catch(failed('closed changes'));
  };
  purge();
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
  purgeTimer.unref();

  const dispatcher = startWebhookDispatcher(webhooks, () => outbox.backlog(), config, registry, logger);
  const listeners = [webhookListener(webhooks, () => dispatcher.wake())];
  const relay = startChangeRelay(
    { outbox, counts, items: repository },
    new ChangeVerdicts(new ChangeEvidenceStore(connection), config.webhookIntentGraceMs),
    listeners,
    config.webhookPollIntervalMs,
    logger,
  );
  // An export's end is a change of the stream (export.completed, export.failed), announced from here; a
  // model's reading of an item's sentiment is a change of the item, recorded and counted through it too.
  const announcements = changeStream(
    { outbox, counts, items: repository },
    {
      listeners,
      wake: () => relay.wake(),
      warn: (error, changeId) =>
        logger.warn({ err: error, eventId: changeId }, 'change not finished yet: the relay finishes it'),
    },
  );
  const exportWorker = await startFeedbackExportWorker(connection, tombstones, announcements.announce, config, logger);
  const model = await startModelFeature(
    connection,
    config,
    registry,
    { items: repository, events: announcements },
    logger,
  );
  const themeWorker =
    config.themesIntervalMs > 0 ? startThemeWorker(themes, config.themesIntervalMs, logger, model.themes) : null;
  const delivery = alertChannels(
    { store: alerts, items: repository, announce: announcements.announce },
    config,
    logger,
  );
  const sources = alertSources(themes, new InsightsStore(connection));
  const clock = options.clock ?? (() => new Date());
  const alertDetector =
    config.alertsIntervalMs > 0
      ? startAlertDetector(
          {
            store: alerts,
            sources,
            deliver: alertDeliverer(alerts, delivery.channels, logger),
            ...(config.integrationsUrl
              ? {
                  silentPlatforms: integrationsActivity(
                    config.integrationsUrl,
                    async (orgId) => (await alerts.rules(orgId)).rules,
                  ),
                }
              : {}),
            clock,
          },
          config.alertsIntervalMs,
          logger,
        )
      : null;
  const { transport, recipients } = delivery.mail;
  const digests =
    config.digestIntervalMs > 0 && transport && recipients
      ? startDigestWorker(
          { store: alerts, sources, items: repository, transport, recipients, publicUrl: config.publicUrl, clock },
          config.digestIntervalMs,
          logger,
        )
      : null;
  const search = new SearchIndexStore(connection);
  const searchIndexer =
    config.searchIndexIntervalMs > 0
      ? startSearchIndexer(search, config.searchIndexIntervalMs, config.searchIndexGraceMs, logger)
      : null;
  return {
    close: async () => {
      clearInterval(purgeTimer);
      await Promise.all([exportWorker.close(), model.close(), alertDetector?.close(), digests?.close()]);
      await announcements.settle();
      await Promise.all([relay.close(), themeWorker?.close(), searchIndexer?.close()]);
      await dispatcher.close();
    },
  };
}
