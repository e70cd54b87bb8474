import type { Member } from '../data/memberRepository';
import type { IdentityRepositories } from '../data/repositories';
import type { SsoRepositories } from './data';
import { domainOf } from './emailDomain';
import { passwordRefused } from './ssoErrors';

/**
 * Password sign-in of a person whose verified domain requires single sign-on is refused (after the
 * password was checked, so the answer says nothing about accounts to someone without one). Owners keep
 * their password: the break-glass way in when the identity provider is down or misconfigured, audited
 * apart so it is seen.
 */
export function ssoPasswordPolicy(repositories: IdentityRepositories, sso: SsoRepositories) {
  return async (member: Member, address: string): Promise<void> => {
    const domain = domainOf(member.email);
    const claim = await sso.domains.find(member.orgId, domain);
    if (!claim?.verifiedAt || !claim.ssoRequired) return;
    const breakGlass = member.role === 'owner';
    await repositories.audit.record({
      orgId: member.orgId,
      action: breakGlass ? 'sso.break_glass_sign_in' : 'sso.password_refused',
      actor: member.email,
      target: domain,
      address,
    });
    if (!breakGlass) throw passwordRefused(domain);
  };
}
