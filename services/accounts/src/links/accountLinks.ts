import type DataLoader from 'dataloader';
import { scopedReference, type DirectoryExtension, type SubgraphContext } from '@fi/shared';
import type { AccountItem, AccountRepository } from '../data/accountRepository';
import { createContactAccountLoader, createLinkKeysLoader, type AccountLinkKeys, type ContactRef } from './accountLinkLoaders';

export interface AccountsContext extends SubgraphContext {
  contactAccounts: DataLoader<ContactRef, AccountItem | null, string>;
  linkKeys: DataLoader<AccountItem, AccountLinkKeys, string>;
}

/** The account of a contact, and what an account links by (for the contacts and feedback services). */
export function accountLinks(repository: AccountRepository): DirectoryExtension<AccountsContext> {
  const model = repository.model;
  return {
    resolvers: {
      ContactItem: {
        __resolveReference: scopedReference<ContactRef & { id: string }>('contact'),
        account: (contact: ContactRef, _: unknown, ctx: AccountsContext) => ctx.contactAccounts.load(contact),
      },
      AccountItem: {
        linkDomain: async (account: AccountItem, _: unknown, ctx: AccountsContext) => (await ctx.linkKeys.load(account)).linkDomain,
        linkName: async (account: AccountItem, _: unknown, ctx: AccountsContext) => (await ctx.linkKeys.load(account)).linkName,
      },
    },
    extendContext: (base) => ({
      ...base,
      contactAccounts: createContactAccountLoader(model),
      linkKeys: createLinkKeysLoader(model),
    }),
  };
}
