import type { WebhookEndpointStore } from './data/webhookEndpointStore';

/** How long an instance trusts what it read about an organization's endpoints. */
export const SUBSCRIBER_CACHE_MS = 2_000;

/**
 * Which event types an organization's enabled endpoints want, cached briefly: most organizations have
 * no endpoint, and their writes should cost nothing extra. Changes through this instance take effect at
 * once; an endpoint added through another instance gets events of changes made here after at most
 * SUBSCRIBER_CACHE_MS.
 */
export class SubscriberCache {
  private readonly entries = new Map<string, { types: Set<string>; until: number }>();
  /** Bumped by every `forget`: a read that overlapped one may predate the change, so it is not kept. */
  private changes = 0;

  constructor(private readonly endpoints: WebhookEndpointStore) {}

  async wants(orgId: string, type: string): Promise<boolean> {
    const now = Date.now();
    let entry = this.entries.get(orgId);
    if (!entry || entry.until <= now) {
      const changesBefore = this.changes;
      const enabled = (await this.endpoints.list(orgId)).filter((endpoint) => !endpoint.disabledAt);
      entry = { types: new Set(enabled.flatMap((endpoint) => endpoint.events)), until: now + SUBSCRIBER_CACHE_MS };
      if (this.changes === changesBefore) this.entries.set(orgId, entry);
      // Organizations come and go; expired entries are dropped as new ones arrive.
      if (this.entries.size > 10_000)
        for (const [key, value] of this.entries) if (value.until <= now) this.entries.delete(key);
    }
    return entry.types.has(type);
  }

  forget(orgId: string): void {
    this.changes += 1;
    this.entries.delete(orgId);
  }
}
