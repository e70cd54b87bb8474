import type { Member } from '../data/memberRepository';
import type { Organization } from '../data/organizationRepository';

/**
 * The step between proving who one is (a password, single sign-on, an invitation's link) and getting a
 * session: it throws when the member must first give a second factor (or set one up), and lets the
 * session open otherwise. Declared here so every way into a session passes it; two-factor sign-in fills it in.
 */
export interface SecondFactorGate {
  require(member: Member, organization: Organization): Promise<void>;
}

export const NO_SECOND_FACTOR: SecondFactorGate = { require: async () => undefined };
