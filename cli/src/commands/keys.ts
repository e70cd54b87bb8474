import { GraphQLError } from 'graphql';
import { KeyService, migrateLegacyKeys, openRepositories, OPERATOR } from '@fi/identity';
import { ErrorCode, TIERS, type Tier } from '@fi/shared';
import { openLegacyKeyStore, type Databases } from '../databases';
import { UsageError, type Output } from '../output';

function parseTier(value: string | undefined): Tier | undefined {
  if (value === undefined) return undefined;
  if (!(TIERS as readonly string[]).includes(value)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
  return value as Tier;
}

export function parseRateLimit(value: string | undefined): number | null {
  if (value === undefined || value === 'default') return null;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError('the rate limit must be a whole number of requests per minute, or "default"');
  return Number(value);
}

export interface KeysOptions {
  org?: string;
  tier?: string;
  readOnly?: boolean;
  rateLimit?: string;
  name?: string;
}

/** The identity service's refusals of bad input are usage errors here (exit 2), in its own words. */
export const CLIENT_CODES: unknown[] = [ErrorCode.BAD_REQUEST, ErrorCode.NOT_FOUND, ErrorCode.FORBIDDEN];

/**
 * `keys create|list|revoke|set-limit|migrate`, through the identity service's own rules as an operator.
 * The secret is printed once, on stdout alone, at creation.
 */
export async function keysCommand(
  action: string | undefined,
  args: string[],
  options: KeysOptions,
  db: Databases,
  out: Output,
) {
  try {
    await runKeys(action, args, options, db, out);
  } catch (error) {
    if (error instanceof GraphQLError && CLIENT_CODES.includes(error.extensions.code))
      throw new UsageError(error.message);
    throw error;
  }
}

async function runKeys(action: string | undefined, args: string[], options: KeysOptions, db: Databases, out: Output) {
  const keys = new KeyService(await openRepositories(db.identity));
  switch (action) {
    case 'create': {
      if (!options.org) throw new UsageError('keys create needs --org ORG');
      const tier = parseTier(options.tier);
      const rateLimitPerMinute = parseRateLimit(options.rateLimit);
      const organization = await keys.organizationFor(OPERATOR, options.org, tier);
      const { key, record } = await keys.create(OPERATOR, organization.id, {
        name: options.name ?? 'cli',
        readOnly: options.readOnly ?? false,
        rateLimitPerMinute,
      });
      out.result(key);
      out.info(
        `Created ${record.id} for ${record.orgId} (${organization.tier}${record.readOnly ? ', read-only' : ''}). The key is shown only this once.`,
      );
      return;
    }
    case 'list': {
      if (!options.org) throw new UsageError('keys list needs --org ORG');
      const organization = await keys.organizationFor(OPERATOR, options.org, undefined);
      for (const record of await keys.list(OPERATOR, organization.id)) {
        out.result(
          [
            record.id,
            `${record.hint}…`,
            organization.tier,
            record.readOnly ? 'read-only' : 'read-write',
            record.rateLimitPerMinute ? `${record.rateLimitPerMinute}/min` : 'tier limit',
            record.createdAt.toISOString(),
            record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active',
            record.name,
            record.lastUsedAt ? `last used ${record.lastUsedAt.toISOString()}` : 'never used',
          ].join('\t'),
        );
      }
      return;
    }
    case 'revoke': {
      const target = args[0];
      if (!target) throw new UsageError('keys revoke needs the key or its id');
      const record = await keys.revoke(OPERATOR, target);
      out.info(`Revoked ${record.id}.`);
      return;
    }
    case 'set-limit': {
      const [target, limit] = args;
      if (!target || !limit)
        throw new UsageError('keys set-limit needs the key (or its id) and a limit per minute, or "default"');
      const record = await keys.setRateLimit(OPERATOR, target, parseRateLimit(limit));
      out.info(
        `${record.id} now has ${record.rateLimitPerMinute ? `${record.rateLimitPerMinute} requests a minute` : "its tier's limit"}.`,
      );
      return;
    }
    case 'migrate': {
      const legacy = await openLegacyKeyStore(db);
      try {
        const report = await migrateLegacyKeys(legacy.connection, await openRepositories(db.identity));
        out.info(
          `Moved ${report.moved} keys of ${report.organizations} organizations (${report.alreadyMoved} moved before).` +
            (report.tierConflicts.length > 0
              ? ` Organizations whose keys had different tiers now have the highest: ${report.tierConflicts.join(', ')}.`
              : ''),
        );
      } finally {
        await legacy.close();
      }
      return;
    }
    default:
      throw new UsageError('keys takes create, list, revoke, set-limit or migrate');
  }
}
