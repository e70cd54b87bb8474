import type { SignInFailureRepository } from '../data/signInFailureRepository';
import { tooManySignIns, tooManySignInsAtOnce } from './identityErrors';

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
  /** Password checks one address may have running at once in this process. */
  checksPerAddress: number;
}

/**
 * Sign-in attempts are counted per account from one address, and per address over all accounts. An
 * attacker guessing one account's password is stopped at their own address while the owner, signing
 * in from elsewhere, is not locked out; one address spraying many accounts is stopped too. Attempts
 * are counted for emails nobody has in the same way, so the throttle does not reveal accounts.
 *
 * Each attempt is counted in the database before its password is checked (it takes one of the limit's
 * slots, a unique insert), so a burst of simultaneous attempts cannot get more passwords checked than the
 * limit; a success gives its count back. The password check itself (32 MiB of scrypt)
 * is bounded per address in the process, so one address's burst cannot queue up the hashing threads
 * everyone else's sign-ins need.
 */
export class SignInThrottle {
  private readonly checksInFlight = new Map<string, number>();

  constructor(
    private readonly failures: SignInFailureRepository,
    private readonly limits: SignInLimits,
  ) {}

  /**
   * Runs `check` (does the password match? in `matches`) when the address has a check free and both counts have room,
   * counting the attempt first; RATE_LIMITED with the seconds to wait otherwise. A match gives the
   * account's count at that address back in full (as documented: a success clears it) and the address's
   * own count for this attempt.
   */
  async attempt<T extends { matches: boolean }>(
    email: string,
    address: string,
    check: () => Promise<T>,
    /** Further counts the attempt takes a slot of (e.g. one account's over every address); a match gives its slots back. */
    extra: ReadonlyArray<{ subject: string; limit: number }> = [],
  ): Promise<T> {
    const running = this.checksInFlight.get(address) ?? 0;
    if (running >= this.limits.checksPerAddress) throw tooManySignInsAtOnce();
    this.checksInFlight.set(address, running + 1);
    try {
      const now = new Date();
      const account = accountSubject(email, address);
      const taken = await this.failures.takeAll(
        [
          { subject: account, limit: this.limits.perAccount },
          { subject: addressSubject(address), limit: this.limits.perAddress },
          ...extra,
        ],
        now,
        this.limits.windowMs,
      );
      if (taken.refusedUntil)
        throw tooManySignIns(Math.max(1, Math.ceil((taken.refusedUntil.getTime() - now.getTime()) / 1000)));
      const checked = await check();
      // A success is no failure: its slot of the address's count is given back, and the account's count
      // at that address is cleared.
      const [, ...ownSlots] = taken.slots;
      if (checked.matches) await Promise.all([this.failures.clear(account), this.failures.release(ownSlots)]);
      return checked;
    } finally {
      const left = (this.checksInFlight.get(address) ?? 1) - 1;
      if (left > 0) this.checksInFlight.set(address, left);
      else this.checksInFlight.delete(address);
    }
  }
}

const accountSubject = (email: string, address: string) => `account:${email}|${address}`;
const addressSubject = (address: string) => `address:${address}`;
