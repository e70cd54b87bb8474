import { forbidden } from '../errors';
import type { SubgraphContext } from '../subgraph';

/**
 * `__resolveReference` for an entity this service extends with fields of its own: the representation
 * carries the record's organization (an `@external` field required from the owning service), and it must
 * be one of the organizations of the operation's keys, so a link can never cross organizations, even
 * when someone calls this subgraph directly with forged representations.
 */
export function scopedReference<R extends { orgId: string }>(what: string) {
  return async (ref: R, ctx: SubgraphContext): Promise<R> => {
    if (!(await ctx.allowedOrgs()).has(ref.orgId)) throw forbidden(`Not authorized to read this ${what}`);
    return ref;
  };
}

/** Query key for a batch that may span the operation's organizations. */
export const orgKey = (orgId: string, key: string) => `${orgId}\u0000${key}`;
