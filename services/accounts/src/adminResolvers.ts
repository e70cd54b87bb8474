import { directoryAdminOperations, type DirectoryRecords } from '@fi/shared';
import type { ServiceExports } from '@fi/shared/database';
import type { AccountDocument } from './data/accountModel';
import type { AccountItem } from './data/accountRepository';
import { ACCOUNT_CSV_COLUMNS, ACCOUNT_EDITABLE, checkAccount } from './domain/accountRules';
import type { Resolvers } from './generated/adminResolvers';
import { ACCOUNT_NOT_FOUND } from './resolvers';

/** The admin schema (admin.graphql): the web application's signed-in members list, change and import accounts. */
export function createAccountAdminResolvers(
  records: DirectoryRecords<AccountDocument, AccountItem>,
  exportJobs: ServiceExports['operations'],
): Resolvers {
  const accounts = directoryAdminOperations(records, {
    resource: 'accounts',
    notFoundMessage: ACCOUNT_NOT_FOUND,
    check: checkAccount,
    editable: ACCOUNT_EDITABLE,
    csv: ACCOUNT_CSV_COLUMNS,
  });
  return {
    Query: {
      accounts: (_, args, ctx) => accounts.list(ctx, args),
      account: (_, args, ctx) => accounts.get(ctx, args),
    },
    Mutation: {
      createAccount: (_, args, ctx) => accounts.create(ctx, args),
      updateAccount: (_, args, ctx) => accounts.update(ctx, args),
      deleteAccount: (_, args, ctx) => accounts.remove(ctx, args),
      importAccounts: (_, args, ctx) => accounts.importCsv(ctx, args),
      deleteAccountsExport: (_, args, ctx) => exportJobs.remove(ctx, args),
    },
  };
}
