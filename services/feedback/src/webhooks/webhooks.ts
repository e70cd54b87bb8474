import type { Logger } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import type { Registry } from 'prom-client';
import type { ChangeListener, RecordedChange } from '../changes';
import { WebhookDeliveryStore } from './data/webhookDeliveryStore';
import { WebhookEndpointStore } from './data/webhookEndpointStore';
import { WebhookDispatcher, type ChangeBacklog } from './dispatcher';
import { SecretBox } from '@fi/shared';
import { SubscriberCache } from './subscriberCache';
import type { WebhookConfig } from './webhookConfig';
import { WebhookEndpoints } from './webhookEndpoints';
import { isEventType, payloadOf } from './webhookEvents';
import { createWebhookMetrics } from './webhookMetrics';

const HISTORY_PURGE_INTERVAL_MS = 60 * 60 * 1000;
/**
 * How long the relay trusts what it read of an organization's endpoints: an endpoint removed meanwhile gets
 * no attempt (the dispatcher reads it again first), one added meanwhile misses at most the changes of this
 * long, as an instance's subscriber cache lets it (SUBSCRIBER_CACHE_MS).
 */
const ENDPOINTS_KEPT_MS = 1_000;

/**
 * The webhook management rules over a database connection (for the service and the CLI). `queued` hears
 * of a delivery queued by a rule (a test event, a redelivery), for a dispatcher in the same process.
 */
export function webhookEndpoints(connection: Connection, config: WebhookConfig, queued?: () => void) {
  const endpoints = new WebhookEndpointStore(connection);
  const deliveries = new WebhookDeliveryStore(connection);
  const box = new SecretBox(config.webhookSecretKey, 'WEBHOOK_SECRET_KEY');
  const subscribers = new SubscriberCache(endpoints);
  const management = new WebhookEndpoints(
    endpoints,
    deliveries,
    box,
    { allowHttp: config.webhookAllowHttp, privateTargets: config.webhookPrivateTargets },
    {
      secretOverlapMs: config.webhookSecretOverlapMs,
      changed: (orgId) => subscribers.forget(orgId),
      queued,
    },
  );
  return {
    endpoints,
    deliveries,
    box,
    subscribers,
    management,
    ensureIndexes: () => Promise.all([endpoints.ensureIndexes(), deliveries.ensureIndexes()]),
  };
}

/**
 * Webhooks as a listener of the change stream: a change is wanted when an enabled endpoint of its
 * organization subscribes to its type (most organizations have none: their writes cost nothing more), and
 * a published change is queued for each such endpoint (once: a delivery's id is the endpoint's and the
 * event's). `queued` wakes a dispatcher in the same process.
 */
export function webhookListener(webhooks: ReturnType<typeof webhookEndpoints>, queued?: () => void): ChangeListener {
  const { endpoints, deliveries, subscribers } = webhooks;
  // An organization's endpoints, read once for the changes the relay hands over in a row (a backlog).
  const recent = new Map<string, { at: number; list: ReturnType<typeof endpoints.list> }>();
  const endpointsOf = (orgId: string) => {
    const now = Date.now();
    const kept = recent.get(orgId);
    if (kept && now - kept.at < ENDPOINTS_KEPT_MS) return kept.list;
    if (recent.size > 1_000) recent.clear();
    const list = endpoints.list(orgId);
    recent.set(orgId, { at: now, list });
    void list.catch(() => recent.delete(orgId));
    return list;
  };
  return {
    wants: async (change) => isEventType(change.type) && subscribers.wants(change.orgId, change.type),
    async published(change: RecordedChange) {
      if (!isEventType(change.type)) return;
      const event = { ...change, type: change.type, data: change.data };
      const subscribed = (await endpointsOf(change.orgId)).filter(
        (endpoint) => !endpoint.disabledAt && endpoint.events.includes(event.type),
      );
      const payload = payloadOf(event);
      for (const endpoint of subscribed) await deliveries.enqueue(event, payload, endpoint.id);
      if (subscribed.length > 0) queued?.();
    },
  };
}

/**
 * The webhooks' background work, in the worker process: the dispatcher that sends queued deliveries, and
 * the purge of old history.
 */
export function startWebhookDispatcher(
  webhooks: ReturnType<typeof webhookEndpoints>,
  changes: ChangeBacklog,
  config: WebhookConfig,
  registry: Registry,
  logger: Logger,
) {
  const { endpoints, deliveries, box } = webhooks;
  const dispatcher = new WebhookDispatcher(
    { endpoints, deliveries, changes },
    box,
    {
      pollIntervalMs: config.webhookPollIntervalMs,
      timeoutMs: config.webhookTimeoutMs,
      concurrency: config.webhookConcurrency,
      schedule: {
        baseMs: config.webhookRetryBaseMs,
        maxDelayMs: config.webhookRetryMaxDelayMs,
        windowMs: config.webhookRetryWindowMs,
      },
      policy: { allowHttp: config.webhookAllowHttp, privateTargets: config.webhookPrivateTargets },
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
  return {
    wake: () => dispatcher.wake(),
    close: async () => {
      clearInterval(purgeTimer);
      await dispatcher.close();
    },
  };
}
