import { Counter, Gauge, type Registry } from 'prom-client';

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'dropped';

export interface WebhookMetrics {
  /** Counts `count` deliveries (default one) with that outcome. */
  delivery(outcome: DeliveryOutcome, count?: number): void;
  backlog(depth: number, oldestAgeSeconds: number): void;
}

export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const deliveries = new Counter({
    name: 'fi_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, will retry), failed (given up), dropped (endpoint removed or disabled)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const depth = new Gauge({
    name: 'fi_webhook_queue_depth',
    help: 'Webhook work not yet done: unpublished events plus pending deliveries (the same figure on every instance)',
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'fi_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest event not yet delivered (0 when nothing is pending)',
    registers: [registry],
  });
  for (const outcome of ['delivered', 'retry', 'failed', 'dropped'] as const) deliveries.inc({ outcome }, 0);
  return {
    delivery: (outcome, count = 1) => deliveries.inc({ outcome }, count),
    backlog: (value, ageSeconds) => {
      depth.set(value);
      oldest.set(ageSeconds);
    },
  };
}
