import { randomUUID } from 'node:crypto';
import { KeyService, openRepositories, OPERATOR } from '@fi/identity';
import { IDENTITY_HEADER, parseSigningKeys, signIdentity, type Principal, type Tier } from '@fi/shared';
import { connectMongo, type Connection } from '@fi/shared/database';

/** A fresh organization id: tests isolate themselves by organization. */
export const newOrgId = () => `org-${randomUUID()}`;

/** Keys created here, and who they stand for: tests that call a subgraph directly sign for them. */
const principals = new Map<string, Principal>();

export interface NewKey {
  orgId?: string;
  tier?: Tier;
  readOnly?: boolean;
  rateLimitPerMinute?: number | null;
}

/** A key made through the identity service's rules, in the identity database on `connection`. */
export async function createKeyIn(
  connection: Connection,
  options: NewKey = {},
): Promise<{ key: string; orgId: string; id: string }> {
  const keys = new KeyService(await openRepositories(connection));
  const organization = await keys.organizationFor(
    OPERATOR,
    options.orgId ?? newOrgId(),
    options.orgId && !options.tier ? undefined : (options.tier ?? 'pro'),
  );
  const { key, record } = await keys.create(OPERATOR, organization.id, {
    name: 'test',
    readOnly: options.readOnly ?? false,
    rateLimitPerMinute: options.rateLimitPerMinute ?? null,
  });
  principals.set(key, {
    ref: key,
    kind: 'key',
    orgId: organization.id,
    role: record.readOnly ? 'viewer' : 'member',
    tier: organization.tier,
    readOnly: record.readOnly,
    rateLimitPerMinute: record.rateLimitPerMinute,
  });
  return { key, orgId: organization.id, id: record.id };
}

/** A pro key for a fresh organization (or `orgId`) in the identity database of the server at `uri`. */
export async function createKeyAt(uri: string, orgId?: string): Promise<string> {
  const connection = await connectMongo(uri, 'identity');
  try {
    return (await createKeyIn(connection, { orgId })).key;
  } finally {
    await connection.close();
  }
}

/**
 * The header the gateway would send a subgraph for a key made here, for tests that call a subgraph
 * directly. It names the raw key as its reference (the gateway would name the key's id and swap the
 * key for it), so the test's queries keep their `apiKey` arguments unchanged.
 */
export function signedIdentityFor(key: string, ttlMs = 600_000): Record<string, string> {
  const principal = principals.get(key);
  if (!principal) throw new Error('signedIdentityFor: the key was not created by this helper');
  return {
    [IDENTITY_HEADER]: signIdentity(parseSigningKeys(process.env.IDENTITY_SIGNING_KEYS ?? ''), [principal], ttlMs),
  };
}
