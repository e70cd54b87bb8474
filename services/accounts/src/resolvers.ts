import { directoryOperations, scopedReference } from '@fi/shared';
import type { AccountRepository } from './data/accountRepository';
import type { Resolvers } from './generated/resolvers';

export const ACCOUNT_NOT_FOUND = 'Account not found';

export function createAccountResolvers(repository: AccountRepository): Resolvers {
  const directory = directoryOperations(repository, ACCOUNT_NOT_FOUND);
  return {
    Query: {
      accountItems: (_, args, ctx) => directory.search(ctx, args),
      accountItem: (_, args, ctx) => directory.findOne(ctx, args),
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
