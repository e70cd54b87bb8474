import type { Logger, SecretBox } from '@fi/shared';
import type { Connection as MongoConnection } from '@fi/shared/database';
import type { IntegrationsWorkerConfig } from '../config';
import { PULLED_TICKET } from '../connectors';
import type { ConnectionStore } from '../data/connectionStore';
import type { InboxStore } from '../data/inboxStore';
import { openCredentials } from '../domain/connections';
import { Refused, type DirectoryPort } from '../ports';
import { LeaseStore } from './data/leaseStore';
import { SyncStateStore } from './data/syncStateStore';
import { DirectoryWriter } from './directoryWriter';
import { hubspotConnector } from './hubspotConnector';
import { PullSync } from './pullSync';
import type { PullConnection, PulledBatch, PullSink } from './pullTypes';
import { PullWorker, type PullConnections } from './pullWorker';
import { zendeskConnector } from './zendeskConnector';

/** Days of history a connection's first sync reads when its settings name none. */
export const DEFAULT_BACKFILL_DAYS = 30;
/** Records per HubSpot search page (its maximum is 200). */
const HUBSPOT_PAGE_SIZE = 100;

export interface PullDeps {
  db: MongoConnection;
  connections: ConnectionStore;
  inbox: InboxStore;
  box: SecretBox;
  directory: DirectoryPort;
  logger: Logger;
}

/** The Zendesk and HubSpot connections that can be pulled: not paused, with a token (and Zendesk's subdomain). */
function pullConnections(store: ConnectionStore, box: SecretBox): PullConnections {
  return {
    async active() {
      const found = (await Promise.all([store.listActive('zendesk'), store.listActive('hubspot')])).flat();
      return found.flatMap((connection): PullConnection[] => {
        const { token } = openCredentials(box, connection);
        const subdomain = typeof connection.settings.subdomain === 'string' ? connection.settings.subdomain : undefined;
        // A Zendesk connection with only a webhook secret is pushed to, not pulled.
        if (!token || (connection.kind === 'zendesk' && !subdomain)) return [];
        const days = Number(connection.settings.backfillDays ?? DEFAULT_BACKFILL_DAYS);
        return [
          {
            id: connection.id,
            orgId: connection.orgId,
            kind: connection.kind as PullConnection['kind'],
            subdomain,
            token,
            backfillDays: Number.isInteger(days) && days >= 0 ? days : DEFAULT_BACKFILL_DAYS,
          },
        ];
      });
    },
  };
}

/**
 * Where a page's records go: tickets into the durable inbox (as items already made, keyed by ticket id:
 * the worker's inbox loop creates them through the feedback service), contacts and companies through the
 * contacts and accounts services' rules. Refused records are the connection's last error; an unavailable
 * service fails the page, whose cursor is then not saved (it is fetched again).
 */
function pullSink(deps: PullDeps): PullSink {
  const writer = new DirectoryWriter(deps.directory, (error) => error instanceof Refused);
  return {
    async deliver(connection: PullConnection, batch: PulledBatch) {
      const now = new Date();
      const { stored } = await deps.inbox.storeMany(
        connection,
        batch.items.map((item) => ({ deliveryKey: item.externalId, type: PULLED_TICKET, payload: item })),
        now,
      );
      if (batch.contacts.length + batch.accounts.length > 0) {
        const outcome = await writer.write(connection, batch.contacts, batch.accounts);
        if (outcome.refused.length > 0)
          await deps.connections.recordError(
            connection.id,
            `${outcome.refused.length} record(s) refused; ${outcome.refused[0]}`,
            now,
          );
        if (outcome.written > 0) await deps.connections.recordEvent(connection.id, now);
      }
      if (stored > 0) await deps.connections.recordEvent(connection.id, now);
    },
  };
}

/** The worker's pull loop over Zendesk and HubSpot connections (see docs/integrations.md); none with PULL_POLL_MS 0. */
export async function startPullIntake(config: IntegrationsWorkerConfig, deps: PullDeps) {
  if (config.pullPollMs === 0) return { close: async () => undefined };
  const leases = new LeaseStore(deps.db);
  const states = new SyncStateStore(deps.db);
  await Promise.all([leases.ensureIndexes(), states.ensureIndexes()]);
  const timeoutMs = config.serviceCallTimeoutMs;
  const sync = new PullSync(
    leases,
    states,
    {
      zendesk: zendeskConnector({ baseUrl: config.zendeskBaseUrl, pageSize: config.zendeskPageSize, timeoutMs }),
      hubspot: hubspotConnector({ baseUrl: config.hubspotBaseUrl, pageSize: HUBSPOT_PAGE_SIZE, timeoutMs }),
    },
    pullSink(deps),
    {
      leaseMs: config.pullLeaseMs,
      intervalMs: config.pullIntervalMs,
      failureBackoffMs: config.pullFailureBackoffMs,
    },
    {
      failed: (connection, message) =>
        deps.connections.recordError(connection.id, message, new Date(), { failing: true }),
      caughtUp: (connection) => deps.connections.recordWorking(connection.id),
    },
  );
  const worker = new PullWorker(
    sync,
    pullConnections(deps.connections, deps.box),
    { pollMs: config.pullPollMs, concurrency: config.pullConcurrency },
    (error, connection) => deps.logger.warn({ err: error, connectionId: connection?.id }, 'pull sync failed'),
  );
  worker.start();
  return { close: () => worker.stop() };
}
