import type { Logger } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import type { Registry } from 'prom-client';
import { startModelFeature } from './ai';
import { changeStream, ChangeEvidenceStore, ChangeOutbox, ChangeVerdicts, startChangeRelay } from './changes';
import type { FeedbackConfig } from './config';
import { CountStore, FeedbackRepository, FeedbackTombstones, IdempotencyStore } from './core';
import { startSearchIndexer } from './search';
import { SearchIndexStore } from './searchIndex';
import { startThemeWorker, ThemeStore } from './themes';
import { startWebhookDispatcher, webhookEndpoints, webhookListener } from './webhooks';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The feedback service's background work: the change stream's relay and the webhook dispatcher it feeds,
 * the theme computation, the search indexer, and the purges of what is kept for a while (idempotency keys,
 * tombstones, closed changes, webhook history). Nothing here answers a request.
 */
export async function startBackgroundWork(
  connection: Connection,
  registry: Registry,
  config: FeedbackConfig,
  logger: Logger,
) {
  const repository = new FeedbackRepository(connection);
  const counts = new CountStore(connection);
  const outbox = new ChangeOutbox(connection);
  const idempotency = new IdempotencyStore(connection);
  const tombstones = new FeedbackTombstones(connection);
  const themes = new ThemeStore(connection);
  const webhooks = webhookEndpoints(connection, config, () => dispatcher.wake());
  await Promise.all([
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
  const relay = startChangeRelay(
    { outbox, counts, items: repository },
    new ChangeVerdicts(new ChangeEvidenceStore(connection), config.webhookIntentGraceMs),
    [webhookListener(webhooks, () => dispatcher.wake())],
    config.webhookPollIntervalMs,
    logger,
  );
  // A model's reading of an item's sentiment is a change of the item: recorded, counted and relayed as any other.
  const modelChanges = changeStream(
    { outbox, counts, items: repository },
    {
      listeners: [],
      wake: () => relay.wake(),
      warn: (error, changeId) =>
        logger.warn({ err: error, eventId: changeId }, 'change not finished yet: the relay finishes it'),
    },
  );
  const model = await startModelFeature(
    connection,
    config,
    registry,
    { items: repository, events: modelChanges },
    logger,
  );
  const themeWorker = config.themesIntervalMs > 0 ? startThemeWorker(themes, config.themesIntervalMs, logger) : null;
  const search = new SearchIndexStore(connection);
  const searchIndexer =
    config.searchIndexIntervalMs > 0
      ? startSearchIndexer(search, config.searchIndexIntervalMs, config.searchIndexGraceMs, logger)
      : null;
  return {
    /** A change left open for the relay (a listener wants it): relay it now rather than at the next poll. */
    wakeRelay: () => relay.wake(),
    close: async () => {
      clearInterval(purgeTimer);
      await model.close();
      await modelChanges.settle();
      await Promise.all([relay.close(), themeWorker?.close(), searchIndexer?.close()]);
      await dispatcher.close();
    },
  };
}
