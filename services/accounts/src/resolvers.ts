import { scopedReference, type DirectoryRecords } from '@fi/shared';
import { directoryOperations, type ServiceExports } from '@fi/shared/database';
import type { AccountDocument } from './data/accountModel';
import type { AccountItem } from './data/accountRepository';
import type { Resolvers } from './generated/resolvers';

type ExportOperations = ServiceExports['operations'];

export const ACCOUNT_NOT_FOUND = 'Account not found';

export function createAccountResolvers(
  records: DirectoryRecords<AccountDocument, AccountItem>,
  exportJobs: ExportOperations,
  settleMs: number,
): Resolvers {
  const directory = directoryOperations(records, {
    resource: 'accounts',
    notFoundMessage: ACCOUNT_NOT_FOUND,
    settleMs,
  });
  return {
    Query: {
      accountItems: (_, args, ctx) => directory.search(ctx, args),
      accountItem: (_, args, ctx) => directory.findOne(ctx, args),
      accountsExportJob: (_, args, ctx) => exportJobs.get(ctx, args),
      accountsExports: (_, args, ctx) => exportJobs.list(ctx, args),
      accountsChanges: (_, args, ctx) => directory.changes(ctx, args),
    },
    Mutation: {
      startAccountsExport: (_, args, ctx) => exportJobs.start(ctx, args),
    },
    AccountItem: {
      __resolveReference: (ref, ctx) => directory.resolveReference(ctx, ref),
      linkDomain: (account, _, ctx) => ctx.links.linkKeys.load({ account, kind: 'domain' }),
      linkName: (account, _, ctx) => ctx.links.linkKeys.load({ account, kind: 'name' }),
    },
    ContactItem: {
      __resolveReference: (ref, ctx) => scopedReference('contact', ref, ctx),
      account: (contact, _, ctx) => ctx.links.contactAccounts.load(contact),
    },
  };
}
