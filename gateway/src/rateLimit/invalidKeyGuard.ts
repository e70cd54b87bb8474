import type { WindowCounter } from './windowCounter';

const MAX_REMEMBERED_ADDRESSES = 10_000;

/**
 * Throttles guessing: a client address that sends more than `limit` requests with a missing or invalid
 * key in one window gets 429 instead of UNAUTHENTICATED for its invalid keys for the rest of that
 * window. Requests with a valid key from the same address are never refused (a shared NAT must not
 * lock out an office for one misconfigured client); guessing a 256-bit key is hopeless anyway, the
 * guard bounds the load. Failures are counted per address, never against a real key's budget.
 * Refusals are remembered in-process, so a blocked address costs no Redis call.
 */
export class InvalidKeyGuard {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly counter: WindowCounter,
    private readonly limit: number,
  ) {}

  /** Seconds the address must still wait, or null when it may try. */
  retryAfter(address: string, now = Date.now()): number | null {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return null;
    if (until <= now) {
      this.blockedUntil.delete(address);
      return null;
    }
    return Math.ceil((until - now) / 1000);
  }

  /** Counts one failed attempt; returns the seconds to wait when the address is now over its limit. */
  async recordFailure(address: string): Promise<number | null> {
    const counted = await this.counter.count('invalid-key', address, this.limit);
    if (counted.allowed) return null;
    if (this.blockedUntil.size >= MAX_REMEMBERED_ADDRESSES) this.forgetExpired();
    this.blockedUntil.set(address, Date.now() + counted.msBeforeNext);
    return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
  }

  private forgetExpired(): void {
    const now = Date.now();
    for (const [address, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(address);
    if (this.blockedUntil.size >= MAX_REMEMBERED_ADDRESSES) this.blockedUntil.clear();
  }
}
