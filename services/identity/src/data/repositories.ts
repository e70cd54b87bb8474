import type { Connection } from 'mongoose';
import { ApiKeyRepository } from './apiKeyRepository';
import { AuditRepository } from './auditRepository';
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
  };
  for (const repository of Object.values(repositories)) {
    if ('ensureIndexes' in repository) await repository.ensureIndexes();
  }
  return repositories;
}

/** Sessions, links and sign-in counts past their end; they are refused anyway, this only frees the space. */
export async function purgeExpired(repositories: IdentityRepositories, now = new Date()): Promise<void> {
  await repositories.sessions.purgeExpired(now);
  await repositories.oneTimeTokens.purgeExpired(now);
  await repositories.signInFailures.purgeExpired(now);
}
