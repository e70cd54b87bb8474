import { TIERS, type Tier } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import { readLegacyKeys } from '../data/legacyKeyStore';
import type { IdentityRepositories } from '../data/repositories';

export interface MigrationReport {
  moved: number;
  alreadyMoved: number;
  organizations: number;
  /** Organizations whose keys had different tiers: the plan is the highest of them. */
  tierConflicts: string[];
}

const rank = (tier: Tier) => TIERS.indexOf(tier);

/**
 * Moves every key of the old shared store into the identity service, keeping its id and hash, so the
 * secrets clients hold keep working unchanged. Run it again and it moves only what is new. The tier
 * moves from the key to its organization: each organization gets the highest tier among its keys.
 */
export async function migrateLegacyKeys(
  legacy: Connection,
  repositories: IdentityRepositories,
): Promise<MigrationReport> {
  const tiers = new Map<string, Set<Tier>>();
  for await (const key of readLegacyKeys(legacy)) {
    tiers.set(key.orgId, (tiers.get(key.orgId) ?? new Set()).add(key.tier));
  }
  for (const [orgId, found] of tiers) {
    const highest = [...found].sort((a, b) => rank(b) - rank(a))[0];
    const { created } = await repositories.organizations.findOrCreate(orgId, { name: orgId, tier: highest });
    if (created)
      await repositories.audit.record({
        orgId,
        action: 'organization.created',
        actor: 'migration',
        target: orgId,
        address: null,
      });
  }
  const report: MigrationReport = {
    moved: 0,
    alreadyMoved: 0,
    organizations: tiers.size,
    tierConflicts: [...tiers].filter(([, found]) => found.size > 1).map(([orgId]) => orgId),
  };
  for await (const key of readLegacyKeys(legacy)) {
    if (await repositories.apiKeys.importStored(key)) report.moved += 1;
    else report.alreadyMoved += 1;
  }
  return report;
}
