import { forbidden } from '../errors';
import type { SubgraphContext } from '../subgraph';

/**
 * `__resolveReference` for an entity this service extends with fields of its own: the representation
 * carries the record's organization (an `@external` field required from the owning service), and it must
 * be one of the organizations of the operation's keys, so a link can never cross organizations, even
 * when someone calls this subgraph directly with forged representations.
 */
export async function scopedReference<R extends object>(
  what: string,
  ref: R,
  ctx: SubgraphContext,
): Promise<R & { orgId: string }> {
  // A representation without its organization (only a forged one lacks it) belongs to none.
  const orgId = 'orgId' in ref && typeof ref.orgId === 'string' ? ref.orgId : undefined;
  if (orgId === undefined || !(await ctx.allowedOrgs()).has(orgId))
    throw forbidden(`Not authorized to read this ${what}`);
  return { ...ref, orgId };
}

/** Query key for a batch that may span the operation's organizations. */
export const orgKey = (orgId: string, key: string) => `${orgId}\u0000${key}`;
