import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { changesSettleMs, IDEMPOTENCY_KEY_HEADER, type Logger, type SubgraphContext } from '@fi/shared';
import { startSubgraph } from '@fi/shared/database';
import { createFeedbackAdminResolvers } from './adminResolvers';
import { feedbackChangeFeed } from './changes/feedbackChangeFeed';
import type { FeedbackConfig } from './config';
import { createContactStatsLoader } from './contactStatsLoader';
import { InsightsStore } from './data/insightsStore';
import { FeedbackRepository } from './data/feedbackRepository';
import { FeedbackStatusStore } from './data/feedbackStatusStore';
import { FeedbackTombstones } from './data/feedbackTombstones';
import { IdempotencyStore } from './data/idempotencyStore';
import { SimilarityRepository } from './data/similarityRepository';
import { ThemeStore } from './data/themeStore';
import type { FeedbackContext } from './feedbackContext';
import { startFeedbackExports } from './export/feedbackExports';
import { createFeedbackLinkLoaders } from './links/feedbackLinks';
import { createResolvers } from './resolvers';
import { createDuplicateLoader } from './merges/duplicateLoader';
import { OrgSimilarity } from './similarity/orgSimilarity';
import { createThemeLoaders } from './themes/themeLoaders';
import { startThemeWorker } from './themes/themeWorker';
import { startSearchIndexer } from './search/searchIndexer';
import { createSearchMetrics } from './search/searchMetrics';
import { startWebhooks } from './webhooks/webhooks';

export const FEEDBACK_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');
export const FEEDBACK_ADMIN_SCHEMA_PATH = path.join(__dirname, 'admin.graphql');

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Builds and starts the feedback subgraph on the configured port (0 picks a free one, as tests do). */
export function startFeedbackService(config: FeedbackConfig, logger: Logger) {
  return startSubgraph<FeedbackContext>(
    {
      name: 'feedback',
      schemaPath: FEEDBACK_SCHEMA_PATH,
      async setUp(connection, registry) {
        const repository = new FeedbackRepository(connection, createSearchMetrics(registry));
        const idempotency = new IdempotencyStore(connection);
        const tombstones = new FeedbackTombstones(connection);
        await Promise.all([repository.ensureIndexes(), idempotency.ensureIndexes(), tombstones.ensureIndexes()]);
        const purge = () => {
          idempotency.purgeExpired().catch((error: unknown) => logger.warn({ err: error }, 'idempotency purge failed'));
          tombstones.purge().catch((error: unknown) => logger.warn({ err: error }, 'tombstone purge failed'));
        };
        purge();
        const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
        purgeTimer.unref();
        const webhooks = await startWebhooks(connection, repository, config, registry, logger);
        const themes = new ThemeStore(connection);
        await themes.ensureIndexes();
        const themeWorker =
          config.themesIntervalMs > 0 ? startThemeWorker(themes, config.themesIntervalMs, logger) : null;
        const searchIndexer =
          config.searchIndexIntervalMs > 0
            ? startSearchIndexer(repository.search, config.searchIndexIntervalMs, config.searchIndexGraceMs, logger)
            : null;
        const exportJobs = await startFeedbackExports(connection, tombstones, webhooks.announce, config, logger);
        const statuses = new FeedbackStatusStore(connection);
        const insights = new InsightsStore(connection);
        const similarity = new OrgSimilarity(new SimilarityRepository(connection));
        const extendContext = (base: SubgraphContext, headers: IncomingHttpHeaders): FeedbackContext => ({
          ...base,
          contactStats: createContactStatsLoader(repository),
          links: createFeedbackLinkLoaders(repository),
          themes: createThemeLoaders(themes),
          duplicates: createDuplicateLoader(tombstones, repository),
          idempotencyKeyHeader: headers[IDEMPOTENCY_KEY_HEADER],
        });
        return {
          resolvers: createResolvers(repository, idempotency, statuses, {
            ...webhooks,
            tombstones,
            changes: feedbackChangeFeed(repository, tombstones, changesSettleMs(config)),
            exportJobs: exportJobs.operations,
            insights,
            similarity,
            themes,
          }),
          admin: {
            schemaPath: FEEDBACK_ADMIN_SCHEMA_PATH,
            resolvers: createFeedbackAdminResolvers(
              repository,
              { statuses, events: webhooks.events },
              { insights, similarity, themes, webhooks: webhooks.management, tombstones },
            ),
            extendContext,
          },
          routes: exportJobs.routes,
          extendContext,
          close: async () => {
            clearInterval(purgeTimer);
            await exportJobs.close();
            await Promise.all([webhooks.close(), themeWorker?.close(), searchIndexer?.close()]);
          },
        };
      },
    },
    config,
    logger,
  );
}
