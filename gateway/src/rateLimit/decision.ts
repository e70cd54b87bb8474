import type { Tier } from '@fi/shared';

/** Where one key stands after a request was counted. */
export interface RateLimitDecision {
  allowed: boolean;
  tier: Tier;
  /** Requests per window; null for an unlimited key. */
  limit: number | null;
  remaining: number | null;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
  windowSeconds: number;
}

/** The decision to report when a request used several keys: the one closest to its limit. */
export function mostConstrained(decisions: RateLimitDecision[]): RateLimitDecision | undefined {
  let chosen: RateLimitDecision | undefined;
  for (const decision of decisions) {
    if (!chosen) chosen = decision;
    else if (decision.remaining !== null && (chosen.remaining === null || decision.remaining < chosen.remaining))
      chosen = decision;
  }
  return chosen;
}

/**
 * The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers-07): `RateLimit-Policy: 60;w=60` and
 * `RateLimit: limit=60, remaining=59, reset=42`. An unlimited key has no limit to state, so it gets
 * neither field; the body's `extensions.rateLimit` says `unlimited: true`.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  if (decision.limit === null) return {};
  return {
    'ratelimit-policy': `${decision.limit};w=${decision.windowSeconds}`,
    ratelimit: `limit=${decision.limit}, remaining=${decision.remaining ?? 0}, reset=${decision.resetSeconds}`,
  };
}

/** The same figures for the response body, so clients that cannot read headers see them too. */
export function rateLimitExtension(decision: RateLimitDecision) {
  if (decision.limit === null) return { tier: decision.tier, unlimited: true };
  return {
    tier: decision.tier,
    limit: decision.limit,
    remaining: decision.remaining,
    reset: decision.resetSeconds,
    window: decision.windowSeconds,
  };
}
