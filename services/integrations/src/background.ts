import { SecretBox, type Logger } from '@fi/shared';
import { startWorker } from '@fi/shared/database';
import type { IntegrationsWorkerConfig } from './config';
import { ConnectionStore } from './data/connectionStore';
import { InboxStore } from './data/inboxStore';
import { startInboxWorker } from './inbox';
import { directoryPort, feedbackPort } from './ports';
import { startPullIntake } from './pull';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The integrations service's worker process (src/worker.ts): makes the items of received events (the
 * inbox) and pulls the pull connections' platforms (src/pull), with its own probes and metrics. The API only stores what platforms send, so events wait while
 * no worker runs and are made once one is back; several workers may run (each event is held with a lease,
 * and one external id makes one item).
 */
export function startIntegrationsWorker(config: IntegrationsWorkerConfig, logger: Logger) {
  return startWorker(
    {
      name: 'integrations-worker',
      async setUp(connection) {
        const inbox = new InboxStore(connection);
        const connections = new ConnectionStore(connection);
        await Promise.all([inbox.ensureIndexes(), connections.ensureIndexes()]);
        const calls = { signingKeys: config.identitySigningKeys, timeoutMs: config.serviceCallTimeoutMs };
        const box = new SecretBox(config.integrationsSecretKey, 'INTEGRATIONS_SECRET_KEY');
        const worker = startInboxWorker(
          {
            inbox,
            connections,
            box,
            feedback: feedbackPort(config.feedbackUrl, calls),
            apis: { slackApiUrl: config.slackApiUrl, timeoutMs: config.serviceCallTimeoutMs },
            logger,
          },
          {
            pollMs: config.inboxPollMs,
            leaseMs: config.inboxLeaseMs,
            maxAttempts: config.inboxMaxAttempts,
            concurrency: config.inboxConcurrency,
            batchSize: config.inboxBatch,
          },
        );
        // Zendesk tickets and HubSpot records, read on a schedule: tickets become inbox events like pushed ones.
        const pull = await startPullIntake(config, {
          db: connection,
          connections,
          inbox,
          box,
          directory: directoryPort({ contacts: config.contactsUrl, accounts: config.accountsUrl }, calls),
          logger,
        });
        const purge = () =>
          inbox.purgeFinished().catch((error: unknown) => logger.warn({ err: error }, 'inbox purge failed'));
        void purge();
        const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
        purgeTimer.unref();
        return {
          close: async () => {
            clearInterval(purgeTimer);
            await Promise.all([pull.close(), worker.close()]);
          },
        };
      },
    },
    config,
    logger,
  );
}
