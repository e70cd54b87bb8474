import { badRequest, notFound, type Page, type PageResult } from '@fi/shared';
import type { WebhookDeliveryStore, WebhookDelivery } from '../data/webhookDeliveryStore';
import type { WebhookEndpointStore, WebhookEndpoint } from '../data/webhookEndpointStore';
import { EVENT_TYPES, type EventType } from './events';
import { newSigningSecret, type SecretBox } from './secretBox';
import { checkTarget, MAX_URL_LENGTH, TargetRefused, type TargetPolicy } from './targetPolicy';

export const MAX_ENDPOINTS_PER_ORG = 20;
export const MAX_EVENT_NAME_LENGTH = 100;
export const WEBHOOK_ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';

export { MAX_URL_LENGTH };

function validEvents(events: string[]): EventType[] {
  if (events.length === 0) throw badRequest('events must name at least one event', { argument: 'events', allowed: EVENT_TYPES });
  if (events.length > EVENT_TYPES.length * 2) {
    throw badRequest(`events must have at most ${EVENT_TYPES.length * 2} entries (got ${events.length})`, { argument: 'events', max: EVENT_TYPES.length * 2 });
  }
  for (const event of events) {
    if (event.length > MAX_EVENT_NAME_LENGTH) {
      throw badRequest(`each of events must be at most ${MAX_EVENT_NAME_LENGTH} characters (got ${event.length})`, { argument: 'events', max: MAX_EVENT_NAME_LENGTH });
    }
    if (!(EVENT_TYPES as readonly string[]).includes(event)) {
      throw badRequest(`events must be among ${EVENT_TYPES.join(', ')} (got ${JSON.stringify(event)})`, { argument: 'events', allowed: EVENT_TYPES });
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
    /** Told after an organization's endpoints changed. */
    private readonly changed: (orgId: string) => void = () => undefined,
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
      throw badRequest(`An organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`, { max: MAX_ENDPOINTS_PER_ORG });
    }
    const id = this.endpoints.newId();
    const secret = newSigningSecret();
    const endpoint = await this.endpoints.insert(id, orgId, url.href, events, this.box.seal(secret, id));
    this.changed(orgId);
    return { ...endpoint, secret };
  }

  list(orgId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.list(orgId);
  }

  /** Removes the endpoint and forgets its deliveries; NOT_FOUND for another organization's. */
  async remove(orgId: string, id: string): Promise<void> {
    if (!(await this.endpoints.remove(orgId, id))) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    this.changed(orgId);
    await this.deliveries.removeEndpoint(id);
  }

  async deliveriesOf(orgId: string, endpointId: string, page: Page): Promise<PageResult<WebhookDelivery>> {
    if (!(await this.endpoints.find(orgId, endpointId))) throw notFound(WEBHOOK_ENDPOINT_NOT_FOUND);
    return this.deliveries.list(endpointId, page);
  }
}
