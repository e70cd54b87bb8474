import type { Caller, Tier } from '@fi/shared';
import type { RateLimitDecision } from './decision';
import { UNLIMITED_POINTS, type WindowCounter } from './windowCounter';

/** Requests per window of each tier; null is unlimited. */
export type TierLimits = Record<Tier, number | null>;

/**
 * Per-key limits: one request counts once for each distinct key it uses. A key's own limit (granted
 * on request, set with the CLI) replaces its tier's. Counts are kept by key id, never by the secret.
 */
export class KeyRateLimits {
  constructor(
    private readonly counter: WindowCounter,
    private readonly tierLimits: TierLimits,
    private readonly windowSeconds: number,
  ) {}

  limitOf(caller: Caller): number | null {
    return caller.rateLimitPerMinute ?? this.tierLimits[caller.tier];
  }

  async consume(callers: Caller[]): Promise<RateLimitDecision[]> {
    const distinct = [...new Map(callers.map((caller) => [caller.keyId, caller])).values()];
    return Promise.all(
      distinct.map(async (caller) => {
        const limit = this.limitOf(caller);
        if (limit === null) {
          // An unlimited key is never refused, so its request does not wait for the count.
          void this.counter.count('key', caller.keyId, UNLIMITED_POINTS).catch(() => undefined);
          return { allowed: true, tier: caller.tier, limit, remaining: null, resetSeconds: this.windowSeconds, windowSeconds: this.windowSeconds };
        }
        const counted = await this.counter.count('key', caller.keyId, limit);
        return {
          allowed: counted.allowed,
          tier: caller.tier,
          limit,
          remaining: Math.max(0, limit - counted.consumed),
          resetSeconds: Math.max(1, Math.ceil(counted.msBeforeNext / 1000)),
          windowSeconds: this.windowSeconds,
        };
      }),
    );
  }
}
