import DataLoader from 'dataloader';
import type { AuthorStats } from '../core';
import type { LinkStore } from './data/linkStore';

export interface ContactRef {
  orgId: string;
  email?: string | null;
}

/** A contact as the gateway sends it to this service: its key and the fields its @requires name. */
export interface ContactRepresentation extends ContactRef {
  id: string;
  storedLastInteraction?: string | Date | null;
}

const NO_FEEDBACK: AuthorStats = { count: 0, lastPublished: null };

/**
 * One loader per request: the gateway sends a page of contacts in one `_entities` call, and all their
 * stats come from one query per organization instead of one per contact.
 */
export function createContactStatsLoader(store: LinkStore): DataLoader<ContactRef, AuthorStats, string> {
  return new DataLoader<ContactRef, AuthorStats, string>(
    async (refs) => {
      const byOrg = new Map<string, string[]>();
      for (const ref of refs) {
        if (!ref.email) continue;
        byOrg.set(ref.orgId, [...(byOrg.get(ref.orgId) ?? []), ref.email]);
      }
      const statsByOrg = new Map(
        await Promise.all(
          [...byOrg].map(async ([orgId, emails]) => [orgId, await store.statsByEmail(orgId, emails)] as const),
        ),
      );
      return refs.map((ref) => (ref.email && statsByOrg.get(ref.orgId)?.get(ref.email.toLowerCase())) || NO_FEEDBACK);
    },
    { cacheKeyFn: (ref) => `${ref.orgId}\u0000${(ref.email ?? '').toLowerCase()}` },
  );
}
