import path from 'node:path';
import { SecretBox, type Logger } from '@fi/shared';
import { createIntegrationAdminResolvers } from './adminResolvers';
import { startSubgraph, type RunningSubgraph } from '@fi/shared/database';
import type { IntegrationsConfig } from './config';
import { ConnectionStore } from './data/connectionStore';
import { InboxStore } from './data/inboxStore';
import { Connections } from './domain/connections';
import type { AuditPort } from './domain/auditTrail';
import { identityAudit } from './ports';
import { SyncStateStore } from './pull';
import { createResolvers } from './resolvers';
import { PLATFORM_ACTIVITY_PATH, platformActivityRoute } from './http';

export const INTEGRATIONS_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');
export const INTEGRATIONS_ADMIN_SCHEMA_PATH = path.join(__dirname, 'admin.graphql');

/** The stores and rules both the API process and the CLI use. */
export function integrationParts(
  connection: RunningSubgraph['connection'],
  config: Pick<IntegrationsConfig, 'integrationsSecretKey' | 'hookPublicUrl' | 'inboundMailDomain'>,
  audit: AuditPort,
  logger: Logger,
) {
  const store = new ConnectionStore(connection);
  const inbox = new InboxStore(connection);
  const pullStates = new SyncStateStore(connection);
  const box = new SecretBox(config.integrationsSecretKey, 'INTEGRATIONS_SECRET_KEY');
  const connections = new Connections({
    store,
    inbox,
    forget: (connectionId) => pullStates.remove(connectionId),
    box,
    hookPublicUrl: config.hookPublicUrl,
    inboundMailDomain: config.inboundMailDomain,
    audit,
    logger,
  });
  return {
    store,
    inbox,
    box,
    connections,
    ensureIndexes: () => Promise.all([store.ensureIndexes(), inbox.ensureIndexes(), pullStates.ensureIndexes()]),
  };
}

/**
 * Builds and starts the integrations subgraph on the configured port (0 picks a free one, as tests do). It
 * only serves the API: the receiver (receiver/) stores what platforms send, the worker (background.ts)
 * makes the items.
 */
export function startIntegrationsService(config: IntegrationsConfig, logger: Logger): Promise<RunningSubgraph> {
  return startSubgraph(
    {
      name: 'integrations',
      schemaPath: INTEGRATIONS_SCHEMA_PATH,
      async setUp(connection) {
        const audit = identityAudit(config.identityUrl, config.identityTimeoutMs);
        const parts = integrationParts(connection, config, audit, logger);
        await parts.ensureIndexes();
        return {
          resolvers: createResolvers(parts.connections),
          admin: {
            schemaPath: INTEGRATIONS_ADMIN_SCHEMA_PATH,
            resolvers: createIntegrationAdminResolvers(parts.connections),
          },
          // The feedback service's alerts ask how each platform sends (a platform gone silent).
          routes: { [PLATFORM_ACTIVITY_PATH]: platformActivityRoute(parts.connections) },
        };
      },
    },
    config,
    logger,
  );
}
