import { appError, ErrorCode } from '@fi/shared';
import type { SignInFailureRepository } from '../data/signInFailureRepository';

/** Reset mails per account, and requests per address, in one SIGN_IN_WINDOW_MINUTES window. */
const PER_ACCOUNT = 3;
const PER_ADDRESS = 20;

/**
 * Keeps password-reset requests from flooding someone's mailbox or the mail relay. Every request counts,
 * whether or not the email has an account, so the limit does not tell which emails exist.
 */
export class ResetRequestLimit {
  constructor(
    private readonly counts: SignInFailureRepository,
    private readonly windowMs: number,
  ) {}

  /**
   * Counts this request against both limits in one conditional write each (simultaneous requests cannot
   * together pass a limit); RATE_LIMITED with the seconds to wait once either is used up, counting nothing.
   */
  async take(email: string, address: string): Promise<void> {
    const now = new Date();
    const { refusedUntil } = await this.counts.takeAll(
      [
        { subject: `reset-account:${email}`, limit: PER_ACCOUNT },
        { subject: `reset-address:${address}`, limit: PER_ADDRESS },
      ],
      now,
      this.windowMs,
    );
    if (!refusedUntil) return;
    const retryAfter = Math.max(1, Math.ceil((refusedUntil.getTime() - now.getTime()) / 1000));
    throw appError(ErrorCode.RATE_LIMITED, `Too many password-reset requests; retry in ${retryAfter} s`, {
      retryAfter,
    });
  }
}
