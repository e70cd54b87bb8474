import type { Logger } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import type { Registry } from 'prom-client';
import { ChangeOutbox } from '../data/changeOutbox';
import { CountStore } from '../data/countStore';
import type { FeedbackRepository } from '../data/feedbackRepository';
import { WebhookDeliveryStore } from '../data/webhookDeliveryStore';
import { WebhookEndpointStore } from '../data/webhookEndpointStore';
import { changeOf, type Change, type ChangeEvents } from '../domain/changeEvents';
import { ChangeVerdicts } from './changeVerdicts';
import { WebhookDispatcher } from './dispatcher';
import { EVENT_TYPES, type EventType, type WebhookEvent } from './events';
import { SecretBox } from './secretBox';
import { SubscriberCache } from './subscriberCache';
import type { WebhookConfig } from './webhookConfig';
import { WebhookEndpoints } from './webhookEndpoints';
import { createWebhookMetrics } from './webhookMetrics';

const isEventType = (type: string): type is EventType => (EVENT_TYPES as readonly string[]).includes(type);

const COUNT_ATTEMPTS = 3;

/** Applies a change's counts (once, see CountStore); a removal may have taken a contact's or account's newest item, so its date is read again. */
async function countChange(
  counts: CountStore,
  repository: FeedbackRepository,
  change: Pick<Change, 'id' | 'type' | 'delta'>,
): Promise<void> {
  await counts.apply(change.id, change.delta);
  if (change.type !== 'feedback.deleted') return;
  const cells = change.delta
    .filter(({ cell }) => cell.scope === 'email' || cell.scope === 'domain')
    .map(({ cell }) => cell);
  await Promise.all(cells.map(async (cell) => counts.setNewest(cell, await repository.newestPublished(cell))));
}

/**
 * The domain's ChangeEvents over the outbox and the kept counts: a change is recorded (to be delivered
 * when an endpoint wants it), then counted once written. Also used by the CLI's imports (which wake no
 * dispatcher: the services' relays close their changes).
 */
export function changeEvents(
  outbox: ChangeOutbox,
  counts: CountStore,
  repository: FeedbackRepository,
  options: {
    wants?: (orgId: string, type: EventType) => Promise<boolean>;
    wake?: () => void;
    warn: (error: unknown, changeId: string) => void;
  },
): ChangeEvents {
  return {
    record: async (change) => {
      const wanted =
        isEventType(change.type) && options.wants !== undefined && (await options.wants(change.orgId, change.type));
      await outbox.record(change, wanted);
    },
    markApplied: (ids) => outbox.markApplied(ids),
    written: async (change) => {
      // Counting is idempotent, so a failed attempt (a busy embedded database) is simply tried again.
      for (let attempt = 1; attempt <= COUNT_ATTEMPTS; attempt += 1) {
        try {
          await countChange(counts, repository, change);
          await outbox.markCounted(change.id);
          await counts.release(change.id, change.delta);
          // A change no endpoint wants is done; one to deliver is closed by the relay once queued.
          if (await outbox.wantsDelivery(change.id)) await outbox.markReleased(change.id);
          else await outbox.close(change);
          break;
        } catch (error) {
          if (attempt === COUNT_ATTEMPTS) options.warn(error, change.id);
        }
      }
      options.wake?.();
    },
  };
}

/** The change events of a process without a dispatcher (the CLI), with the stores they need. */
export async function offlineChangeEvents(
  connection: Connection,
  repository: FeedbackRepository,
  warn: (error: unknown, changeId: string) => void,
): Promise<ChangeEvents> {
  // Only records and counts: the services' relays, with their own grace period, close the changes.
  const outbox = new ChangeOutbox(connection);
  const counts = new CountStore(connection);
  await Promise.all([outbox.ensureIndexes(), counts.ensureIndexes()]);
  return changeEvents(outbox, counts, repository, { warn });
}

/** An announcement (an export's end) changes no kept count. */
const NO_COUNT_CHANGE: Change['delta'] = [];

const HISTORY_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** The webhook management rules over a database connection (for the service and the CLI). */
export function webhookEndpoints(connection: Connection, config: WebhookConfig, queued?: () => void) {
  const endpoints = new WebhookEndpointStore(connection);
  const deliveries = new WebhookDeliveryStore(connection);
  const box = new SecretBox(config.webhookSecretKey);
  const policy = { allowHttp: config.webhookAllowHttp, privateTargets: config.webhookPrivateTargets };
  const subscribers = new SubscriberCache(endpoints);
  const management = new WebhookEndpoints(endpoints, deliveries, box, policy, {
    secretOverlapMs: config.webhookSecretOverlapMs,
    changed: (orgId) => subscribers.forget(orgId),
    queued,
  });
  return { endpoints, deliveries, box, policy, subscribers, management };
}

/**
 * Everything webhooks need in the feedback service: management, the outbox of changes (which also
 * keeps the counts exact) and the dispatcher.
 */
export async function startWebhooks(
  connection: Connection,
  repository: FeedbackRepository,
  config: WebhookConfig,
  registry: Registry,
  logger: Logger,
) {
  // Management wakes the dispatcher made below when it queues a delivery (a test event, a redelivery).
  let dispatcher: WebhookDispatcher | undefined = undefined;
  const { endpoints, deliveries, box, policy, subscribers, management } = webhookEndpoints(connection, config, () =>
    dispatcher?.wake(),
  );
  const outbox = new ChangeOutbox(connection);
  const counts = new CountStore(connection);
  await Promise.all([
    endpoints.ensureIndexes(),
    deliveries.ensureIndexes(),
    outbox.ensureIndexes(),
    counts.ensureIndexes(),
  ]);
  dispatcher = new WebhookDispatcher(
    {
      outbox,
      endpoints,
      deliveries,
      counts: {
        count: (change) => countChange(counts, repository, change),
        release: (id, delta) => counts.release(id, delta),
      },
    },
    new ChangeVerdicts(repository, config.webhookIntentGraceMs),
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
      policy,
    },
    createWebhookMetrics(registry),
    logger,
  );
  const purge = () =>
    Promise.all([
      deliveries.purgeHistory(new Date(Date.now() - config.webhookHistoryDays * 86_400_000)),
      outbox.purgeClosed(),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'webhook history purge failed'));
  const purgeTimer = setInterval(purge, HISTORY_PURGE_INTERVAL_MS);
  purgeTimer.unref();
  void purge();
  dispatcher.start();
  const events = changeEvents(outbox, counts, repository, {
    wants: (orgId, type) => subscribers.wants(orgId, type),
    wake: () => dispatcher.wake(),
    warn: (error, changeId) =>
      logger.warn({ err: error, eventId: changeId }, 'change not counted yet: the outbox relay counts it'),
  });
  /**
   * Announces an event whose change has already happened (an export's end) through the change path:
   * recorded (for the endpoints that want it), then written at once; it changes no count.
   */
  const announce = async (event: WebhookEvent) => {
    const change = changeOf(event, NO_COUNT_CHANGE);
    await events.record(change);
    await events.written(change);
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
