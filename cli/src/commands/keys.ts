import { ApiKeyStore, TIERS, type Tier } from '@fi/shared';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';

function parseTier(value: string | undefined): Tier {
  const tier = value ?? 'free';
  if (!(TIERS as readonly string[]).includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
  return tier as Tier;
}

export function parseRateLimit(value: string | undefined): number | null {
  if (value === undefined || value === 'default') return null;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError('the rate limit must be a whole number of requests per minute, or "default"');
  return Number(value);
}

export interface KeysOptions {
  org?: string;
  tier?: string;
  readOnly?: boolean;
  rateLimit?: string;
}

/** `keys create|list|revoke|set-limit`: the secret is printed once, on stdout alone, at creation. */
export async function keysCommand(action: string | undefined, args: string[], options: KeysOptions, db: Databases, out: Output) {
  const store = new ApiKeyStore(db.auth);
  await store.ensureIndexes();
  switch (action) {
    case 'create': {
      if (!options.org) throw new UsageError('keys create needs --org ORG');
      const { key, record } = await store.create({
        orgId: options.org,
        tier: parseTier(options.tier),
        readOnly: options.readOnly ?? false,
        rateLimitPerMinute: parseRateLimit(options.rateLimit),
      });
      out.result(key);
      out.info(`Created ${record.id} for ${record.orgId} (${record.tier}${record.readOnly ? ', read-only' : ''}). The key is shown only this once.`);
      return;
    }
    case 'list': {
      if (!options.org) throw new UsageError('keys list needs --org ORG');
      for (const record of await store.list(options.org)) {
        out.result(
          [
            record.id,
            `${record.hint}…`,
            record.tier,
            record.readOnly ? 'read-only' : 'read-write',
            record.rateLimitPerMinute ? `${record.rateLimitPerMinute}/min` : 'tier limit',
            record.createdAt.toISOString(),
            record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active',
          ].join('\t'),
        );
      }
      return;
    }
    case 'revoke': {
      const target = args[0];
      if (!target) throw new UsageError('keys revoke needs the key or its id');
      const record = await store.revoke(target);
      if (!record) throw new UsageError('no such key');
      out.info(`Revoked ${record.id}.`);
      return;
    }
    case 'set-limit': {
      const [target, limit] = args;
      if (!target || !limit) throw new UsageError('keys set-limit needs the key (or its id) and a limit per minute, or "default"');
      const record = await store.setRateLimit(target, parseRateLimit(limit));
      if (!record) throw new UsageError('no such key');
      out.info(`${record.id} now has ${record.rateLimitPerMinute ? `${record.rateLimitPerMinute} requests a minute` : "its tier's limit"}.`);
      return;
    }
    default:
      throw new UsageError('keys takes create, list, revoke or set-limit');
  }
}
