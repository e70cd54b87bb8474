// Two-factor sign-in's stores: members' setups, single uses, half-finished sign-ins, organizations' policies.
import type { Connection } from 'mongoose';
import { TwoFactorChallengeRepository } from './twoFactorChallengeRepository';
import { TwoFactorPolicyRepository } from './twoFactorPolicyRepository';
import { TwoFactorRepository } from './twoFactorRepository';
import { TwoFactorUseRepository } from './twoFactorUseRepository';

export type { TwoFactorRecord } from './twoFactorRepository';
export type { TwoFactorChallenge } from './twoFactorChallengeRepository';
export type { TwoFactorRepository, TwoFactorUseRepository, TwoFactorChallengeRepository, TwoFactorPolicyRepository };

export interface TwoFactorStores {
  setups: TwoFactorRepository;
  uses: TwoFactorUseRepository;
  challenges: TwoFactorChallengeRepository;
  policies: TwoFactorPolicyRepository;
}

export async function openTwoFactorStores(connection: Connection): Promise<TwoFactorStores> {
  const stores = {
    setups: new TwoFactorRepository(connection),
    uses: new TwoFactorUseRepository(connection),
    challenges: new TwoFactorChallengeRepository(connection),
    policies: new TwoFactorPolicyRepository(connection),
  };
  await Promise.all(Object.values(stores).map((store) => store.ensureIndexes()));
  return stores;
}

/** Uses and half-finished sign-ins past their end (swept with the service's other expired records). */
export async function purgeExpiredTwoFactor(stores: TwoFactorStores, now: Date): Promise<void> {
  await stores.uses.purgeExpired(now);
  await stores.challenges.purgeExpired(now);
}
