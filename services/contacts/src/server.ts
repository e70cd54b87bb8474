import path from 'node:path';
import { startDirectorySubgraph, type Logger, type ServiceConfig } from '@fi/shared';
import { createContactRepository } from './data/contactRepository';
import { contactLinks } from './links/contactLinks';

export const CONTACTS_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');

const names = { listField: 'contactItems', itemField: 'contactItem', typeName: 'ContactItem', notFoundMessage: 'Contact not found' };

/** Builds and starts the contacts subgraph on the configured port (0 picks a free one, as tests do). */
export function startContactsService(config: ServiceConfig, logger: Logger) {
  return startDirectorySubgraph({ schemaPath: CONTACTS_SCHEMA_PATH, names, createRepository: createContactRepository, extend: contactLinks }, config, logger);
}
