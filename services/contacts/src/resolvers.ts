import { scopedReference, type DirectoryRecords, toPage } from '@fi/shared';
import { directoryOperations, type ServiceExports } from '@fi/shared/database';
import type { ContactDocument } from './data/contactModel';
import type { ContactItem } from './data/contactRepository';
import type { Resolvers } from './generated/resolvers';

type ExportOperations = ServiceExports['operations'];

export const CONTACT_NOT_FOUND = 'Contact not found';

export function createContactResolvers(
  records: DirectoryRecords<ContactDocument, ContactItem>,
  exportJobs: ExportOperations,
  settleMs: number,
): Resolvers {
  const directory = directoryOperations(records, {
    resource: 'contacts',
    notFoundMessage: CONTACT_NOT_FOUND,
    settleMs,
  });
  return {
    Query: {
      contactItems: (_, args, ctx) => directory.search(ctx, args),
      contactItem: (_, args, ctx) => directory.findOne(ctx, args),
      contactsExportJob: (_, args, ctx) => exportJobs.get(ctx, args),
      contactsExports: (_, args, ctx) => exportJobs.list(ctx, args),
      contactsChanges: (_, args, ctx) => directory.changes(ctx, args),
    },
    Mutation: {
      startContactsExport: (_, args, ctx) => exportJobs.start(ctx, args),
    },
    ContactItem: {
      __resolveReference: (ref, ctx) => directory.resolveReference(ctx, ref),
    },
    FeedbackItem: {
      __resolveReference: (ref, ctx) => scopedReference('feedback', ref, ctx),
      contact: (item, _, ctx) => ctx.authors.load(item),
    },
    AccountItem: {
      __resolveReference: (ref, ctx) => scopedReference('account', ref, ctx),
      contacts: (account, args, ctx) => ctx.accountContacts.load({ account, args: toPage(args) }),
    },
  };
}
