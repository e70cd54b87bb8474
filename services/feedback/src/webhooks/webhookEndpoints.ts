import { badRequest, notFound, type Page, type PageResult } from '@fi/shared';
import { deliveryIdOf, type WebhookDeliveryStore, type WebhookDelivery } from './data/webhookDeliveryStore';
import type { WebhookEndpointStore, WebhookEndpoint } from './data/webhookEndpointStore';
import { EVENT_TYPES, testEvent, type EventType } from './webhookEvents';
import { newSigningSecret, type SecretBox } from '@fi/shared';
import { checkTarget, MAX_URL_LENGTH, TargetRefused, type TargetPolicy } from './targetPolicy';

export const MAX_ENDPOINTS_PER_ORG = 20;
export const MAX_EVENT_NAME_LENGTH = 100;
export const WEBHOOK_ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
export const WEBHOOK_DELIVERY_NOT_FOUND = 'Webhook delivery not found';
export const ENDPOINT_DISABLED = 'The endpoint is disabled: re-enable it first';
export const ENDPOINT_ENABLED = 'The endpoint is enabled already';
export const DELIVERY_PENDING = 'The delivery is still pending: it is sent again by its own retries';
export const DELIVERY_BODY_GONE = 'The delivery is too old to send again: its body was not kept';
export const ROTATION_CONFLICT = "The endpoint's secret was rotated at the same moment: read it again and retry";

export { MAX_URL_LENGTH };

function validEvents(events: string[]): EventType[] {
  if (events.length === 0)
    throw badRequest('events must name at least one event', { argument: 'events', allowed: EVENT_TYPES });
  if (events.length > EVENT_TYPES.length * 2) {
    throw badRequest(`events must have at most ${EVENT_TYPES.length * 2} entries (got ${events.length})`, {
      argument: 'events',
      max: EVENT_TYPES.length * 2,
    });
  }
  for (const event of events) {
    if (event.length > MAX_EVENT_NAME_LENGTH) {
      throw badRequest(`each of events must be at most ${MAX_EVENT_NAME_LENGTH} characters (got ${event.length})`, {
        argument: 'events',
        max: MAX_EVENT_NAME_LENGTH,
      });
    }
    if (!(EVENT_TYPES as readonly string[]).includes(event)) {
      throw badRequest(`events must be among ${EVENT_TYPES.join(', ')} (got ${JSON.stringify(event)})`, {
        argument: 'events',
        allowed: EVENT_TYPES,
      });
    }
  }
  return [...new Set(events as EventType[])];
}

/**
 * Managing an organization's webhook endpoints: the rules the API and the CLI share. The signing
 * secret is returned by `add` only; afterwards it exists only sealed.
 */
export class WebhookEndpoints {
  constructor(
    private readonly endpoints: WebhookEndpointStore,
    private readonly deliveries: WebhookDeliveryStore,
    private readonly box: SecretBox,
    private readonly policy: TargetPolicy,
    private readonly hooks: {
      /** How long a rotated-out secret keeps signing beside the new one. */
      secretOverlapMs: number;
      /** Told after an organization's endpoints changed. */
      changed?: (orgId: string) => void;
      /** Told after a delivery was queued, so the dispatcher sends it now rather than at its next poll. */
      queued?: () => void;
    },
  ) {}

  async add(orgId: string, rawUrl: string, rawEvents: string[]): Promise<WebhookEndpoint & { secret: string }> {
    const events = validEvents(rawEvents);
    let url: URL;
    try {
      url = await checkTarget(rawUrl, this.policy);
    } catch (error) {
      if (error instanceof TargetRefused) throw badRequest(error.message, { argument: 'url' });
      throw error;
    }
    if ((await this.endpoints.count(orgId)) >= MAX_ENDPOINTS_PER_ORG) {
      throw badRequest(`An organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`, {
        max: MAX_ENDPOINTS_PER_ORG,
      });
    }
    const id = this.endpoints.newId();
    const secret = newSigningSecret();
    const endpoint = await this.endpoints.insert(id, orgId, url.href, events, this.box.seal(secret, id));
    this.hooks.changed?.(orgId);
    return { ...endpoint, secret };
  }

  list(orgId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.list(orgId);
  }

  /** Removes the endpoint and forgets its deliveries; NOT_FOUND for another organization's. */
  async remove(orgId: string, id: string): Promise<void> {
    if (!(await this.endpoints.remove(orgId, id))) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    this.hooks.changed?.(orgId);
    await this.deliveries.removeEndpoint(id);
  }

  async deliveriesOf(orgId: string, endpointId: string, page: Page): Promise<PageResult<WebhookDelivery>> {
    if (!(await this.endpoints.find(orgId, endpointId))) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    return this.deliveries.list(endpointId, page);
  }

  /**
   * Queues a `webhook.test` event for the endpoint, delivered, signed and retried as any other event;
   * refused for a disabled endpoint, which receives nothing.
   */
  async sendTest(orgId: string, id: string): Promise<WebhookDelivery> {
    await this.enabledEndpoint(orgId, id);
    const { event, payload } = testEvent(orgId, id);
    const now = event.occurredAt;
    await this.deliveries.enqueue(event, payload, id, now);
    this.hooks.queued?.();
    // As queued: the answer does not wait for the attempt (the deliveries list shows it).
    return {
      id: deliveryIdOf(id, event.id),
      eventId: event.id,
      eventType: event.type,
      status: 'pending',
      attempts: [],
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Sends a finished delivery again: the same event id and body, as a new attempt through the queue. */
  async redeliver(orgId: string, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.find(orgId, deliveryId);
    if (!delivery) throw notFound(WEBHOOK_DELIVERY_NOT_FOUND);
    await this.enabledEndpoint(orgId, delivery.endpointId);
    const result = await this.deliveries.redeliver(delivery);
    if (result === 'pending') throw badRequest(DELIVERY_PENDING, { argument: 'id' });
    if (result === 'no_payload') throw badRequest(DELIVERY_BODY_GONE, { argument: 'id' });
    this.hooks.queued?.();
    return result;
  }

  /**
   * Enables a disabled endpoint: it receives events from now on (those of the time it was disabled
   * are failed deliveries, which can be redelivered one by one).
   */
  async enable(orgId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(orgId, id);
    if (!endpoint) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    if (!endpoint.disabledAt) throw badRequest(ENDPOINT_ENABLED, { argument: 'id' });
    const enabled = await this.endpoints.enable(orgId, id);
    if (!enabled) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    this.hooks.changed?.(orgId);
    return enabled;
  }

  /**
   * A new signing secret, returned this once; the replaced one keeps signing beside it for the overlap,
   * so the receiver can switch without losing an event.
   */
  async rotateSecret(orgId: string, id: string): Promise<WebhookEndpoint & { secret: string }> {
    const secret = newSigningSecret();
    const rotated = await this.endpoints.rotateSecret(
      orgId,
      id,
      this.box.seal(secret, id),
      new Date(Date.now() + this.hooks.secretOverlapMs),
    );
    if (!rotated) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    if (rotated === 'conflict') throw badRequest(ROTATION_CONFLICT, { argument: 'id' });
    return { ...rotated, secret };
  }

  private async enabledEndpoint(orgId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(orgId, id);
    if (!endpoint) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    if (endpoint.disabledAt) throw badRequest(ENDPOINT_DISABLED, { argument: 'id' });
    return endpoint;
  }
}
