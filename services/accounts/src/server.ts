import path from 'node:path';
import { changesSettleMs, startDirectorySubgraph, startExports, type Logger, type ServiceConfig } from '@fi/shared';
import { createAccountRepository } from './data/accountRepository';
import { accountsExportSource } from './export/accountsExport';
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
      async wire(repository, connection) {
        const exportJobs = await startExports(connection, accountsExportSource(repository), config, logger);
        return { resolvers: createAccountResolvers(repository, exportJobs.operations, changesSettleMs(config)), extendContext: accountsContext(repository), routes: exportJobs.routes, close: exportJobs.close };
      },
    },
    config,
    logger,
  );
}
