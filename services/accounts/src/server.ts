import path from 'node:path';
import { startDirectorySubgraph, type Logger, type ServiceConfig } from '@fi/shared';
import { createAccountRepository } from './data/accountRepository';
import { accountsContext } from './links/accountLinks';
import { createAccountResolvers } from './resolvers';

export const ACCOUNTS_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');

/** Builds and starts the accounts subgraph on the configured port (0 picks a free one, as tests do). */
export function startAccountsService(config: ServiceConfig, logger: Logger) {
  return startDirectorySubgraph(
    {
      name: 'accounts',
      schemaPath: ACCOUNTS_SCHEMA_PATH,
      createRepository: createAccountRepository,
      wire: (repository) => ({ resolvers: createAccountResolvers(repository), extendContext: accountsContext(repository) }),
    },
    config,
    logger,
  );
}
