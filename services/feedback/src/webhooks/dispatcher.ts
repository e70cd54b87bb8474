import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '@fi/shared';
import type { WebhookDeliveryStore, QueuedDelivery } from './data/webhookDeliveryStore';
import type { EndpointForDelivery, WebhookEndpointStore } from './data/webhookEndpointStore';
import { EndpointRotation } from './endpointRotation';
import { nextAttemptAt, type RetrySchedule } from './retrySchedule';
import type { SecretBox } from '@fi/shared';
import { sendSigned } from './sender';
import type { TargetPolicy } from './targetPolicy';
import type { WebhookMetrics } from './webhookMetrics';

/** The changes not closed yet (see changes/): part of the backlog an operator watches. */
export type ChangeBacklog = () => Promise<{ depth: number; oldest: Date | null }>;

export interface DispatcherOptions {
  pollIntervalMs: number;
  timeoutMs: number;
  concurrency: number;
  schedule: RetrySchedule;
  policy: TargetPolicy;
}

/** `3 s`, `90 min`, `24 h`: the retry window in a reason people read. */
function formatDuration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

/** Endpoints looked at per round: each round's work is bounded. */
const ENDPOINTS_PER_ROUND = 100;
/** Endpoints with queued work an instance keeps in view (each organization has at most 20). */
const ENDPOINTS_WITH_WORK = 10_000;
/** Pause before a round asked for while the previous one ran. */
const ROUND_GAP_MS = 50;
/** A lease outlives its attempt by this much, so a slow database write after the attempt keeps it. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Runs in every worker process of the feedback service: sends each endpoint's oldest pending delivery
 * (one at a time per endpoint, so events arrive in order; the change relay queues them). An attempt is
 * claimed with a lease (`findOneAndUpdate` on `leaseUntil`), so no two instances send the same attempt at
 * once; a crashed instance's lease simply runs out. Rounds run on a timer and at once after a delivery was
 * queued in this process; nothing here ever runs inside an API request.
 *
 * Fairness: endpoints take turns (`EndpointRotation`), whatever their backlog, and no organization holds
 * more than half of the instance's attempts in flight, so receivers that hang cannot take every slot.
 */
export class WebhookDispatcher {
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Attempts in flight by endpoint id, with the endpoint's organization. */
  private readonly inFlight = new Map<string, { orgId: string; attempt: Promise<void> }>();
  private readonly rotation = new EndpointRotation();
  private readonly shutdown = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private again = false;
  /** A round is due in ROUND_GAP_MS: later wake-ups join it. */
  private soon = false;

  constructor(
    private readonly stores: {
      endpoints: WebhookEndpointStore;
      deliveries: WebhookDeliveryStore;
      changes: ChangeBacklog;
    },
    private readonly box: SecretBox,
    private readonly options: DispatcherOptions,
    private readonly metrics: WebhookMetrics,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.wake();
  }

  /** Runs a round soon (after the current one, if one is running). */
  wake(): void {
    if (this.shutdown.signal.aborted) return;
    if (this.round) {
      this.again = true;
      return;
    }
    if (this.soon) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.round = this.runRound().finally(() => {
      this.round = null;
      if (this.shutdown.signal.aborted) return;
      // Wake-ups during a round get one more round, a moment later, so a burst of writes is batched.
      this.soon = this.again;
      this.again = false;
      this.timer = setTimeout(
        () => {
          this.soon = false;
          this.wake();
        },
        this.soon ? ROUND_GAP_MS : this.options.pollIntervalMs,
      );
      this.timer.unref();
    });
  }

  /** Stops rounds, aborts attempts in flight and hands their deliveries back. */
  async close(): Promise<void> {
    this.shutdown.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.round;
    await Promise.all([...this.inFlight.values()].map((flight) => flight.attempt));
  }

  private async runRound(): Promise<void> {
    try {
      await this.dispatch();
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook round failed; retrying at the next poll');
    }
  }

  private async dispatch(): Promise<void> {
    const { endpoints, deliveries } = this.stores;
    await this.reportBacklog();
    if (this.inFlight.size >= this.options.concurrency) return;
    const now = new Date();
    const turn = this.rotation.next(
      await deliveries.endpointsWithWork(ENDPOINTS_WITH_WORK),
      now.getTime(),
      (id) => this.inFlight.has(id),
      ENDPOINTS_PER_ROUND,
    );
    if (turn.length === 0) return;
    const byId = await endpoints.forDelivery(turn);
    const perOrganization = Math.max(1, Math.ceil(this.options.concurrency / 2));
    for (const endpointId of turn) {
      if (this.shutdown.signal.aborted || this.inFlight.size >= this.options.concurrency) return;
      const endpoint = byId.get(endpointId);
      if (!endpoint || endpoint.disabledAt) {
        this.metrics.delivery('dropped', await deliveries.abandonEndpoint(endpointId));
        continue;
      }
      if ([...this.inFlight.values()].filter((flight) => flight.orgId === endpoint.orgId).length >= perOrganization)
        continue;
      this.rotation.looked(endpointId, now.getTime());
      const head = await deliveries.head(endpointId);
      if (!head) continue;
      const due = Math.max(head.nextAttemptAt.getTime(), head.leaseUntil.getTime());
      if (due > now.getTime()) {
        this.rotation.wait(endpointId, due);
        continue;
      }
      const claimed = await deliveries.claim(
        head,
        this.owner,
        new Date(now.getTime() + this.options.timeoutMs + LEASE_MARGIN_MS),
        now,
      );
      if (!claimed) continue;
      const attempt = this.attempt(claimed, endpoint).finally(() => {
        this.inFlight.delete(endpointId);
        this.wake();
      });
      this.inFlight.set(endpointId, { orgId: endpoint.orgId, attempt });
    }
  }

  /** Queue depth and the age of the oldest undelivered event, for /metrics. */
  private async reportBacklog(): Promise<void> {
    const { changes, deliveries } = this.stores;
    const open = await changes();
    const oldestDelivery = await deliveries.oldestOccurredAt();
    const oldest = Math.min(oldestDelivery?.getTime() ?? Infinity, open.oldest?.getTime() ?? Infinity);
    const age = Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0;
    this.metrics.backlog((await deliveries.depth()) + open.depth, age);
  }

  /**
   * After a rotation the replaced secret signs too, until its overlap ends. One that cannot be read (it
   * was sealed under an earlier WEBHOOK_SECRET_KEY: rotating is how an endpoint recovers from a key
   * change) is left out rather than failing the attempt.
   */
  private replacedSecret(endpoint: EndpointForDelivery): string[] {
    if (!endpoint.previousSecret || !endpoint.previousSecretExpiresAt || endpoint.previousSecretExpiresAt <= new Date())
      return [];
    try {
      return [this.box.open(endpoint.previousSecret, endpoint.id)];
    } catch (error) {
      this.logger.warn(
        { err: error, endpointId: endpoint.id },
        'the replaced webhook secret could not be read: signing with the current one only',
      );
      return [];
    }
  }

  private async attempt(delivery: QueuedDelivery, endpoint: EndpointForDelivery): Promise<void> {
    const { endpoints, deliveries } = this.stores;
    const at = new Date();
    try {
      let result;
      try {
        const secrets = [this.box.open(endpoint.secret, endpoint.id), ...this.replacedSecret(endpoint)];
        result = await sendSigned(
          { url: endpoint.url, secrets },
          { id: delivery.eventId, payload: delivery.payload },
          this.options.policy,
          this.options.timeoutMs,
          this.shutdown.signal,
        );
      } catch (error) {
        this.logger.error({ err: error, endpointId: endpoint.id }, 'webhook attempt could not be made');
        result = { ok: false, statusCode: null, error: 'the signing secret could not be read', durationMs: 0 };
      }
      if (this.shutdown.signal.aborted) {
        await deliveries.release(delivery, this.owner);
        return;
      }
      const record = { at, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs };
      if (result.ok) {
        await deliveries.finish(delivery, 'delivered', record);
        await endpoints.recordSuccess(endpoint.id);
        this.metrics.delivery('delivered');
        return;
      }
      const next = nextAttemptAt(
        delivery.attempts + 1,
        delivery.firstAttemptAt ?? at,
        new Date(),
        this.options.schedule,
      );
      if (next) {
        await deliveries.retryLater(delivery, this.owner, record, next);
        this.rotation.wait(endpoint.id, next.getTime());
        await endpoints.recordFailure(endpoint.id, at);
        this.metrics.delivery('retry');
        return;
      }
      await deliveries.finish(delivery, 'failed', record);
      await endpoints.disable(
        endpoint.id,
        `Disabled at ${new Date().toISOString()}: event ${delivery.eventId} failed ${delivery.attempts + 1} attempts over ${formatDuration(this.options.schedule.windowMs)} (last: ${result.error}). Re-enable the endpoint to resume.`,
        new Date(),
      );
      this.metrics.delivery('failed');
      this.metrics.delivery('dropped', await deliveries.abandonEndpoint(endpoint.id));
      this.logger.warn(
        { endpointId: endpoint.id, eventId: delivery.eventId },
        'webhook endpoint disabled after its retries ran out',
      );
    } catch (error) {
      // The lease runs out and another round retries the attempt (same webhook-id: at least once).
      this.logger.warn({ err: error, endpointId: endpoint.id }, 'webhook delivery state could not be saved');
    }
  }
}
