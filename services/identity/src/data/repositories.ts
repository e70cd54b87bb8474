import type { Connection } from 'mongoose';
import { ApiKeyRepository } from './apiKeyRepository';
import { AuditRepository } from './auditRepository';
import { ClaimRepository } from './claimRepository';
import { MemberRepository } from './memberRepository';
import { OneTimeTokenRepository } from './oneTimeTokenRepository';
import { OrganizationRepository } from './organizationRepository';
import { SessionRepository } from './sessionRepository';
import { SignInFailureRepository } from './signInFailureRepository';

export interface IdentityRepositories {
  organizations: OrganizationRepository;
  apiKeys: ApiKeyRepository;
  members: MemberRepository;
  sessions: SessionRepository;
  audit: AuditRepository;
  signInFailures: SignInFailureRepository;
  oneTimeTokens: OneTimeTokenRepository;
  claims: ClaimRepository;
}

/** Every repository of the identity database, with its indexes in place. */
export async function openRepositories(connection: Connection): Promise<IdentityRepositories> {
  const repositories = {
    organizations: new OrganizationRepository(connection),
    apiKeys: new ApiKeyRepository(connection),
    members: new MemberRepository(connection),
    sessions: new SessionRepository(connection),
    audit: new AuditRepository(connection),
    signInFailures: new SignInFailureRepository(connection),
    oneTimeTokens: new OneTimeTokenRepository(connection),
    claims: new ClaimRepository(connection),
  };
  for (const repository of Object.values(repositories)) {
    if ('ensureIndexes' in repository) await repository.ensureIndexes();
  }
  return repositories;
}

/** Sessions, links, sign-in counts and claims past their end; they are refused anyway, this only frees the space. */
export async function purgeExpired(repositories: IdentityRepositories, now = new Date()): Promise<void> {
  await repositories.sessions.purgeExpired(now);
  await repositories.oneTimeTokens.purgeExpired(now);
  await repositories.signInFailures.purgeExpired(now);
  await repositories.claims.purgeExpired(now);
}
