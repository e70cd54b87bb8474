import type { Caller, Tier } from '@fi/shared';
import type { RateLimitDecision } from './decision';
import { UNLIMITED_POINTS, type WindowCounter } from './windowCounter';

/** Requests per window of each tier; null is unlimited. */
export type TierLimits = Record<Tier, number | null>;

/**
 * Requests of unlimited keys are counted in batches, at most this long after they arrive: one Redis
 * command per key and interval instead of one per request, as nothing waits for these counts.
 */
export const UNLIMITED_FLUSH_MS = 1_000;

/**
 * Per-key limits: one request counts once for each distinct key it uses. A key's own limit (granted
 * on request, set with the CLI) replaces its tier's. Counts are kept by key id, never by the secret.
 */
export class KeyRateLimits {
  /** Requests of unlimited keys not yet written to the counter, by key id. */
  private readonly pendingUnlimited = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly counter: WindowCounter,
    private readonly tierLimits: TierLimits,
    private readonly windowSeconds: number,
  ) {}

  limitOf(caller: Caller): number | null {
    return caller.rateLimitPerMinute ?? this.tierLimits[caller.tier];
  }

  async consume(callers: Caller[]): Promise<RateLimitDecision[]> {
    const distinct =
      callers.length === 1 ? callers : [...new Map(callers.map((caller) => [caller.keyId, caller])).values()];
    return Promise.all(
      distinct.map(async (caller) => {
        const limit = this.limitOf(caller);
        if (limit === null) {
          // An unlimited key is never refused, so its request does not wait for the count.
          this.countLater(caller.keyId);
          return {
            allowed: true,
            tier: caller.tier,
            limit,
            remaining: null,
            resetSeconds: this.windowSeconds,
            windowSeconds: this.windowSeconds,
          };
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

  /** Writes the pending counts of unlimited keys now (also on shutdown, so none is lost). */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const pending = [...this.pendingUnlimited];
    this.pendingUnlimited.clear();
    await Promise.all(
      pending.map(([keyId, events]) =>
        this.counter.count('key', keyId, UNLIMITED_POINTS, events).catch(() => undefined),
      ),
    );
  }

  private countLater(keyId: string): void {
    this.pendingUnlimited.set(keyId, (this.pendingUnlimited.get(keyId) ?? 0) + 1);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => void this.flush(), UNLIMITED_FLUSH_MS);
    this.flushTimer.unref();
  }
}
