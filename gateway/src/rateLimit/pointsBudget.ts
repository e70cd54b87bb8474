import type { Caller, Tier } from '@fi/shared';
import type { KeyRateLimits } from './keyRateLimits';
import type { WindowCounter } from './windowCounter';

/** Where one key's points stand after a request's cost was charged. */
export interface CostDecision {
  allowed: boolean;
  tier: Tier;
  /** The request's cost (docs/limits.md). */
  requested: number;
  /** Points per window; null for an unlimited key. */
  limit: number | null;
  remaining: number | null;
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * Each key's budget of points per window beside its budget of requests: its requests per window times
 * `pointsPerRequest`, so a request that costs no more than that never meets this budget before the
 * request limit, and the spec's requests per minute stay true for simple requests; a heavy request
 * pays what it asks. A refused request is charged nothing.
 */
export class PointsBudget {
  constructor(
    private readonly counter: WindowCounter,
    private readonly keyLimits: KeyRateLimits,
    private readonly pointsPerRequest: number,
    private readonly windowSeconds: number,
  ) {}

  limitOf(caller: Caller): number | null {
    const requests = this.keyLimits.limitOf(caller);
    return requests === null ? null : requests * this.pointsPerRequest;
  }

  /** Charges `cost` to each distinct key of the request. */
  async charge(callers: Caller[], cost: number): Promise<CostDecision[]> {
    const distinct = [...new Map(callers.map((caller) => [caller.keyId, caller])).values()];
    return Promise.all(
      distinct.map(async (caller) => {
        const limit = this.limitOf(caller);
        const base = { tier: caller.tier, requested: cost, limit, windowSeconds: this.windowSeconds };
        if (limit === null) return { ...base, allowed: true, remaining: null, resetSeconds: this.windowSeconds };
        // Over the whole budget: refused without a count, it could never pass.
        if (cost > limit) return { ...base, allowed: false, remaining: null, resetSeconds: this.windowSeconds };
        const counted = await this.counter.count('points', caller.keyId, limit, cost, true);
        return {
          ...base,
          allowed: counted.allowed,
          remaining: Math.max(0, limit - counted.consumed),
          resetSeconds: Math.max(1, Math.ceil(counted.msBeforeNext / 1000)),
        };
      }),
    );
  }
}

/** The decision to report when a request used several keys: the one with the fewest points left. */
export function leastPointsLeft(decisions: CostDecision[]): CostDecision | undefined {
  let chosen: CostDecision | undefined;
  for (const decision of decisions) {
    if (
      !chosen ||
      (decision.remaining !== null && (chosen.remaining === null || decision.remaining < chosen.remaining))
    )
      chosen = decision;
  }
  return chosen;
}

/**
 * `extensions.cost` of a response, after Shopify's and GitHub's: what the request cost, and the key's
 * budget. The budget of a window returns whole when it ends (`reset` seconds from now); `restoreRate`
 * states it per second, for clients that pace themselves.
 */
export function costExtension(requested: number, decision: CostDecision | undefined) {
  if (!decision) return { requested };
  if (decision.limit === null) return { requested, unlimited: true };
  return {
    requested,
    limit: decision.limit,
    remaining: decision.remaining,
    restoreRate: Math.round((decision.limit / decision.windowSeconds) * 100) / 100,
    reset: decision.resetSeconds,
    window: decision.windowSeconds,
  };
}
