import type { Connection } from 'mongoose';
import { SsoAttemptRepository } from './ssoAttemptRepository';
import { SsoConnectionRepository } from './ssoConnectionRepository';
import { SsoDomainRepository } from './ssoDomainRepository';

export type { SamlOutcome, SsoAttempt } from './ssoAttemptRepository';
export type { OidcSettings, SamlSettings, SsoConnection } from './ssoConnectionRepository';
export type { SsoDomain } from './ssoDomainRepository';

export interface SsoRepositories {
  connections: SsoConnectionRepository;
  domains: SsoDomainRepository;
  attempts: SsoAttemptRepository;
}

/** The single sign-on collections of the identity database, with their indexes in place. */
export async function openSsoRepositories(connection: Connection): Promise<SsoRepositories> {
  const repositories = {
    connections: new SsoConnectionRepository(connection),
    domains: new SsoDomainRepository(connection),
    attempts: new SsoAttemptRepository(connection),
  };
  await repositories.domains.ensureIndexes();
  await repositories.attempts.ensureIndexes();
  return repositories;
}
