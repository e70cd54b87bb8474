// The documents are in twoFactor.graphql; `npm run codegen` types them against the admin API.
import type { CombinedError } from '@urql/core';
import type { TwoFactorSetupFieldsFragment } from '../../generated/graphql';

export {
  ConfirmTwoFactorSetupDocument as CONFIRM_TWO_FACTOR_SETUP,
  DisableTwoFactorDocument as DISABLE_TWO_FACTOR,
  FinishTwoFactorEnrollmentDocument as FINISH_TWO_FACTOR_ENROLLMENT,
  RequireTwoFactorDocument as REQUIRE_TWO_FACTOR,
  StartTwoFactorEnrollmentDocument as START_TWO_FACTOR_ENROLLMENT,
  StartTwoFactorSetupDocument as START_TWO_FACTOR_SETUP,
  TwoFactorStatusDocument as TWO_FACTOR_STATUS,
  VerifyTwoFactorDocument as VERIFY_TWO_FACTOR,
} from '../../generated/graphql';

export type TwoFactorSetup = TwoFactorSetupFieldsFragment;

/** A sign-in the service stopped before its session: the code is due, or two-factor must be set up first. */
export interface SecondStep {
  reason: 'TWO_FACTOR_REQUIRED' | 'TWO_FACTOR_ENROLLMENT_REQUIRED';
  challenge: string;
}

/** The second step an answer asks for (sign-in, single sign-on, an accepted invitation), or null. */
export function secondStepOf(error: CombinedError | undefined): SecondStep | null {
  const extensions = error?.graphQLErrors[0]?.extensions;
  const reason = extensions?.reason;
  if (
    (reason === 'TWO_FACTOR_REQUIRED' || reason === 'TWO_FACTOR_ENROLLMENT_REQUIRED') &&
    typeof extensions?.challenge === 'string'
  )
    return { reason, challenge: extensions.challenge };
  return null;
}
