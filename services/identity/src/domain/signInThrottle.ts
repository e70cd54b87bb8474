import type { SignInFailureRepository } from '../data/signInFailureRepository';
import { tooManySignIns } from './identityErrors';

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/**
 * Failed sign-ins are counted per account from one address, and per address over all accounts. An
 * attacker guessing one account's password is stopped at their own address while the owner, signing
 * in from elsewhere, is not locked out; one address spraying many accounts is stopped too. Failures
 * are counted for emails nobody has in the same way, so the throttle does not reveal accounts.
 */
export class SignInThrottle {
  constructor(
    private readonly failures: SignInFailureRepository,
    private readonly limits: SignInLimits,
  ) {}

  /** RATE_LIMITED with the seconds to wait when either count is used up. */
  async check(email: string, address: string): Promise<void> {
    const now = new Date();
    const counts = await Promise.all([
      this.failures
        .current(accountSubject(email, address), now)
        .then((count) => ({ count, limit: this.limits.perAccount })),
      this.failures.current(addressSubject(address), now).then((count) => ({ count, limit: this.limits.perAddress })),
    ]);
    const exhausted = counts.filter(({ count, limit }) => count !== null && count.count >= limit);
    if (exhausted.length === 0) return;
    const until = Math.max(...exhausted.map(({ count }) => count!.expiresAt.getTime()));
    throw tooManySignIns(Math.max(1, Math.ceil((until - now.getTime()) / 1000)));
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const now = new Date();
    await this.failures.increment(accountSubject(email, address), now, this.limits.windowMs);
    await this.failures.increment(addressSubject(address), now, this.limits.windowMs);
  }

  /** A successful sign-in clears its account's count at that address (not the address's own). */
  recordSuccess(email: string, address: string): Promise<void> {
    return this.failures.clear(accountSubject(email, address));
  }
}

const accountSubject = (email: string, address: string) => `account:${email}|${address}`;
const addressSubject = (address: string) => `address:${address}`;
