import type { Connection, Logger } from '@fi/shared';
import type { Registry } from 'prom-client';
import { DeliveryStore } from './deliveryStore';
import { WebhookDispatcher } from './dispatcher';
import { EndpointStore } from './endpointStore';
import type { WebhookEvent } from './events';
import { Outbox } from './outbox';
import { SecretBox } from './secretBox';
import { SubscriberCache } from './subscriberCache';
import type { WebhookConfig } from './webhookConfig';
import { WebhookEndpoints } from './webhookEndpoints';
import { createWebhookMetrics } from './webhookMetrics';

/** How the feedback domain announces a change: the event is recorded before, and published after. */
export interface ChangeEvents {
  /**
   * Durably records the event, unless no endpoint of the organization wants it; must complete before
   * the change is written. True when recorded (the change must then name the event).
   */
  record(event: WebhookEvent): Promise<boolean>;
  /** Events whose changes are about to lose their document (a removal); see `Outbox.markApplied`. */
  markApplied(eventIds: string[]): Promise<void>;
  /** The change is written: deliver soon. Never waits, never fails the request. */
  written(): void;
}

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
export async function startWebhooks(connection: Connection, config: WebhookConfig, registry: Registry, logger: Logger) {
  const { endpoints, deliveries, box, policy, subscribers, management } = webhookEndpoints(connection, config);
  const outbox = new Outbox(connection);
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
  /** Announces an event whose change has already happened (an export's end), when an endpoint wants it. */
  const announce = async (event: WebhookEvent) => {
    if (!(await subscribers.wants(event.orgId, event.type))) return;
    await outbox.record(event, true);
    dispatcher.wake();
  };
  return {
    management,
    events,
    announce,
    close: async () => {
      clearInterval(purgeTimer);
      await dispatcher.close();
    },
  };
}
