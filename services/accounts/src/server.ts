import path from 'node:path';
import { createAccountAdminResolvers } from './adminResolvers';
import { changesSettleMs, type Logger, type ServiceConfig } from '@fi/shared';
import { startDirectorySubgraph, startExports } from '@fi/shared/database';
import { createAccountRepository } from './data/accountRepository';
import { accountsExportSource } from './export';
import { accountsContext } from './links';
import { createAccountResolvers } from './resolvers';

export const ACCOUNTS_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');
export const ACCOUNTS_ADMIN_SCHEMA_PATH = path.join(__dirname, 'admin.graphql');

/** Builds and starts the accounts subgraph on the configured port (0 picks a free one, as tests do). */
export function startAccountsService(config: ServiceConfig, logger: Logger) {
  return startDirectorySubgraph(
    {
      name: 'accounts',
      schemaPath: ACCOUNTS_SCHEMA_PATH,
      createRepository: createAccountRepository,
      async wire(records, connection) {
        const exportJobs = await startExports(connection, accountsExportSource(records), config, logger);
        return {
          resolvers: createAccountResolvers(records, exportJobs.operations, changesSettleMs(config)),
          extendContext: accountsContext(records.repository),
          admin: {
            schemaPath: ACCOUNTS_ADMIN_SCHEMA_PATH,
            resolvers: createAccountAdminResolvers(records, exportJobs.operations),
          },
          routes: exportJobs.routes,
          close: exportJobs.close,
        };
      },
    },
    config,
    logger,
  );
}
