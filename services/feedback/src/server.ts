import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { changesSettleMs, IDEMPOTENCY_KEY_HEADER, type Logger, type SubgraphContext } from '@fi/shared';
import { startSubgraph } from '@fi/shared/database';
import { createFeedbackAdminResolvers } from './adminResolvers';
import { similarVectors } from './ai';
import { slackUrls } from './alertChannels';
import { AlertStore } from './alerts';
import { changeStream, ChangeOutbox } from './changes';
import { feedbackChangeFeed } from './changesFeed';
import type { FeedbackConfig } from './config';
import { CountStore, ExternalIdStore, FeedbackRepository, FeedbackTombstones, IdempotencyStore } from './core';
import { feedbackExports } from './export';
import type { FeedbackContext } from './feedbackContext';
import { InsightsStore } from './insights';
import { createFeedbackLinkLoaders, LinkStore } from './links';
import { createDuplicateLoader } from './merges';
import { createResolvers, type FeedbackParts } from './resolvers';
import { createSearchMetrics, IndexStore, searchAnswers } from './search';
import { OrgSimilarity, SimilarityStore } from './similarity';
import { createThemeLoaders, ThemeStore } from './themes';
import { webhookEndpoints, webhookListener } from './webhooks';

export const FEEDBACK_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');
export const FEEDBACK_ADMIN_SCHEMA_PATH = path.join(__dirname, 'admin.graphql');

/**
 * Builds and starts the feedback subgraph on the configured port (0 picks a free one, as tests do). It only
 * serves: the background work (relay, webhook deliveries, exports, themes, search index, purges) runs in
 * the worker process (background.ts), which finds what the API left it in the database.
 */
export function startFeedbackService(config: FeedbackConfig, logger: Logger) {
  return startSubgraph<FeedbackContext>(
    {
      name: 'feedback',
      schemaPath: FEEDBACK_SCHEMA_PATH,
      // Each item's similar items are read one by one (their index, then each item by id).
      readsPerParent: ['FeedbackItem.similar'],
      async setUp(connection, registry) {
        const repository = new FeedbackRepository(connection);
        const idempotency = new IdempotencyStore(connection);
        const tombstones = new FeedbackTombstones(connection);
        const outbox = new ChangeOutbox(connection);
        const themes = new ThemeStore(connection);
        const webhooks = webhookEndpoints(connection, config);
        const alerts = new AlertStore(connection);
        await Promise.all([
          alerts.ensureIndexes(),
          repository.ensureIndexes(),
          idempotency.ensureIndexes(),
          tombstones.ensureIndexes(),
          outbox.ensureIndexes(),
          themes.ensureIndexes(),
          webhooks.ensureIndexes(),
        ]);
        const events = changeStream(
          { outbox, counts: new CountStore(connection), items: repository },
          {
            listeners: [webhookListener(webhooks)],
            warn: (error, changeId) =>
              logger.warn({ err: error, eventId: changeId }, 'change not finished yet: the relay finishes it'),
          },
        );
        const exportJobs = await feedbackExports(connection, tombstones, config, logger);
        const index = new IndexStore(connection);
        await index.ensureIndexes();
        const parts: FeedbackParts = {
          repository,
          tombstones,
          idempotency,
          externalIds: new ExternalIdStore(connection),
          events,
          search: searchAnswers(index, repository, tombstones, createSearchMetrics(registry)),
          insights: new InsightsStore(connection),
          similarity: new OrgSimilarity(new SimilarityStore(connection), similarVectors(connection, config)),
          themes,
          webhooks: webhooks.management,
          exportJobs: exportJobs.operations,
          changes: feedbackChangeFeed(repository, tombstones, changesSettleMs(config)),
          alerts,
          slack: slackUrls(config),
        };
        const links = new LinkStore(connection);
        const extendContext = (base: SubgraphContext, headers: IncomingHttpHeaders): FeedbackContext => ({
          ...base,
          links: createFeedbackLinkLoaders(links),
          themes: createThemeLoaders(themes),
          duplicates: createDuplicateLoader(tombstones, repository),
          idempotencyKeyHeader: headers[IDEMPOTENCY_KEY_HEADER],
        });
        return {
          resolvers: createResolvers(parts),
          admin: {
            schemaPath: FEEDBACK_ADMIN_SCHEMA_PATH,
            resolvers: createFeedbackAdminResolvers(parts),
            extendContext,
          },
          routes: exportJobs.routes,
          extendContext,
          close: () => events.settle(),
        };
      },
    },
    config,
    logger,
  );
}
