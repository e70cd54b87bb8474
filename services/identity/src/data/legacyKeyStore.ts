import type { Connection } from 'mongoose';
import type { Tier } from '@fi/shared';
import type { StoredApiKey } from './apiKeyRepository';

interface LegacyKeyDocument {
  _id: string;
  hash: string;
  orgId: string;
  tier: Tier;
  readOnly: boolean;
  rateLimitPerMinute?: number | null;
  hint: string;
  createdAt: Date;
  revokedAt?: Date | null;
}

const PAGE_SIZE = 500;

/**
 * The keys of the store every service read before the identity service (`api_keys` of the old `auth`
 * database), in pages by id so no read outlives the time limit however many keys there are.
 */
export async function* readLegacyKeys(connection: Connection): AsyncGenerator<StoredApiKey & { tier: Tier }> {
  const collection = connection.collection<LegacyKeyDocument>('api_keys');
  let after: string | null = null;
  for (;;) {
    const page: LegacyKeyDocument[] = await collection
      .find(after === null ? {} : { _id: { $gt: after } })
      .sort({ _id: 1 })
      .limit(PAGE_SIZE)
      .toArray();
    for (const doc of page) {
      yield {
        id: doc._id,
        hash: doc.hash,
        orgId: doc.orgId,
        tier: doc.tier,
        readOnly: doc.readOnly,
        rateLimitPerMinute: doc.rateLimitPerMinute ?? null,
        hint: doc.hint,
        createdAt: doc.createdAt,
        revokedAt: doc.revokedAt ?? null,
      };
    }
    if (page.length < PAGE_SIZE) return;
    after = page[page.length - 1]._id;
  }
}
