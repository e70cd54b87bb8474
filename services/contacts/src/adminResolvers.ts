import { directoryAdminOperations, type DirectoryRecords } from '@fi/shared';
import type { ServiceExports } from '@fi/shared/database';
import type { ContactDocument } from './data/contactModel';
import type { ContactItem } from './data/contactRepository';
import { checkContact, CONTACT_CSV_COLUMNS, CONTACT_EDITABLE } from './domain/contactRules';
import type { Resolvers } from './generated/adminResolvers';
import { CONTACT_NOT_FOUND } from './resolvers';

/** The admin schema (admin.graphql): the web application's signed-in members list, change and import contacts. */
export function createContactAdminResolvers(
  records: DirectoryRecords<ContactDocument, ContactItem>,
  exportJobs: ServiceExports['operations'],
): Resolvers {
  const contacts = directoryAdminOperations(records, {
    resource: 'contacts',
    notFoundMessage: CONTACT_NOT_FOUND,
    check: checkContact,
    editable: CONTACT_EDITABLE,
    csv: CONTACT_CSV_COLUMNS,
  });
  return {
    Query: {
      contacts: (_, args, ctx) => contacts.list(ctx, args),
      contact: (_, args, ctx) => contacts.get(ctx, args),
    },
    Mutation: {
      createContact: (_, args, ctx) => contacts.create(ctx, args),
      updateContact: (_, args, ctx) => contacts.update(ctx, args),
      deleteContact: (_, args, ctx) => contacts.remove(ctx, args),
      importContacts: (_, args, ctx) => contacts.importCsv(ctx, args),
      deleteContactsExport: (_, args, ctx) => exportJobs.remove(ctx, args),
    },
  };
}
