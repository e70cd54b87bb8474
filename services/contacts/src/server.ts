import path from 'node:path';
import { createContactAdminResolvers } from './adminResolvers';
import { changesSettleMs, type Logger, type ServiceConfig } from '@fi/shared';
import { startDirectorySubgraph, startExports } from '@fi/shared/database';
import { createContactRepository } from './data/contactRepository';
import { contactsExportSource } from './export';
import { contactsContext } from './links';
import { createContactResolvers } from './resolvers';

export const CONTACTS_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');
export const CONTACTS_ADMIN_SCHEMA_PATH = path.join(__dirname, 'admin.graphql');

/** Builds and starts the contacts subgraph on the configured port (0 picks a free one, as tests do). */
export function startContactsService(config: ServiceConfig, logger: Logger) {
  return startDirectorySubgraph(
    {
      name: 'contacts',
      schemaPath: CONTACTS_SCHEMA_PATH,
      createRepository: createContactRepository,
      async wire(records, connection) {
        const exportJobs = await startExports(connection, contactsExportSource(records), config, logger);
        return {
          resolvers: createContactResolvers(records, exportJobs.operations, changesSettleMs(config)),
          extendContext: contactsContext(records.repository),
          admin: {
            schemaPath: CONTACTS_ADMIN_SCHEMA_PATH,
            resolvers: createContactAdminResolvers(records, exportJobs.operations),
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
