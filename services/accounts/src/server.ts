import path from 'node:path';
import { startDirectorySubgraph, type Logger, type ServiceConfig } from '@fi/shared';
import { createAccountRepository } from './data/accountRepository';
import { accountLinks } from './links/accountLinks';

export const ACCOUNTS_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');

const names = { listField: 'accountItems', itemField: 'accountItem', typeName: 'AccountItem', notFoundMessage: 'Account not found' };

/** Builds and starts the accounts subgraph on the configured port (0 picks a free one, as tests do). */
export function startAccountsService(config: ServiceConfig, logger: Logger) {
  return startDirectorySubgraph({ schemaPath: ACCOUNTS_SCHEMA_PATH, names, createRepository: createAccountRepository, extend: accountLinks }, config, logger);
}
