// Two-factor sign-in (TOTP, RFC 6238) with recovery codes: entered through this file.
import { SecretBox } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import type { IdentityRepositories } from '../data/repositories';
import type { SignInThrottle } from '../domain/signInThrottle';
import { openTwoFactorStores, purgeExpiredTwoFactor } from './data';
import { TwoFactorService } from './twoFactorService';

export { twoFactorConfigSchema } from './twoFactorConfig';
export { twoFactorResolvers } from './twoFactorResolvers';
export { TwoFactorService, type TwoFactorOptions } from './twoFactorService';

/** Two-factor sign-in on the identity database; `purge` drops used codes and half-finished sign-ins past their end. */
export async function openTwoFactor(
  connection: Connection,
  repositories: IdentityRepositories,
  throttle: SignInThrottle,
  options: { secretKey: Buffer | null; challengeMinutes: number; perMemberLimit: number; now?: () => Date },
) {
  const stores = await openTwoFactorStores(connection);
  const service = new TwoFactorService(repositories, stores, throttle, {
    secrets: options.secretKey ? new SecretBox(options.secretKey, 'TWO_FACTOR_SECRET_KEY') : null,
    challengeTtlMs: options.challengeMinutes * 60_000,
    perMemberLimit: options.perMemberLimit,
    now: options.now,
  });
  return { service, purge: (now: Date) => purgeExpiredTwoFactor(stores, now) };
}
