import type { Connection, Logger } from '@fi/shared';
import type { Registry } from 'prom-client';
import { DeliveryStore } from './deliveryStore';
import { WebhookDispatcher } from './dispatcher';
import { EndpointStore } from './endpointStore';
import type { ChangeEvents } from '../domain/changeEvents';
import { Outbox, type ChangeEvidenceSource } from './outbox';
import { SecretBox } from './secretBox';
import { SubscriberCache } from './subscriberCache';
import type { WebhookConfig } from './webhookConfig';
import { WebhookEndpoints } from './webhookEndpoints';
import { createWebhookMetrics } from './webhookMetrics';

const HISTORY_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** The webhook management rules over a database connection (for the service and the CLI). */
export function webhookEndpoints(connection: Connection, config: WebhookConfig) {
  const endpoints = new EndpointStore(connection);
  const deliveries = new DeliveryStore(connection);
  const box = new SecretBox(config.webhookSecretKey);
  const policy = { allowHttp: config.webhookAllowHttp, privateTargets: config.webhookPrivateTargets };
  const subscribers = new SubscriberCache(endpoints);
  const management = new WebhookEndpoints(endpoints, deliveries, box, policy, (orgId) => subscribers.forget(orgId));
  return { endpoints, deliveries, box, policy, subscribers, management };
}

/** Everything webhooks need in the feedback service: management, change events and the dispatcher. */
export async function startWebhooks(connection: Connection, evidence: ChangeEvidenceSource, config: WebhookConfig, registry: Registry, logger: Logger) {
  const { endpoints, deliveries, box, policy, subscribers, management } = webhookEndpoints(connection, config);
  const outbox = new Outbox(connection, evidence);
  await Promise.all([endpoints.ensureIndexes(), deliveries.ensureIndexes(), outbox.ensureIndexes()]);
  const dispatcher = new WebhookDispatcher(
    { outbox, endpoints, deliveries },
    box,
    {
      pollIntervalMs: config.webhookPollIntervalMs,
      timeoutMs: config.webhookTimeoutMs,
      concurrency: config.webhookConcurrency,
      schedule: { baseMs: config.webhookRetryBaseMs, maxDelayMs: config.webhookRetryMaxDelayMs, windowMs: config.webhookRetryWindowMs },
      policy,
    },
    createWebhookMetrics(registry),
    logger,
  );
  const purge = () =>
    deliveries
      .purgeHistory(new Date(Date.now() - config.webhookHistoryDays * 86_400_000))
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook history purge failed'));
  const purgeTimer = setInterval(purge, HISTORY_PURGE_INTERVAL_MS);
  purgeTimer.unref();
  void purge();
  dispatcher.start();
  const events: ChangeEvents = {
    record: async (event) => {
      if (!(await subscribers.wants(event.orgId, event.type))) return false;
      await outbox.record(event);
      return true;
    },
    markApplied: (ids) => outbox.markApplied(ids),
    written: () => dispatcher.wake(),
  };
  return {
    management,
    events,
    close: async () => {
      clearInterval(purgeTimer);
      await dispatcher.close();
    },
  };
}
