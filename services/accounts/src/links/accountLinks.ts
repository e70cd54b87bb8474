import { scopedReference, type DirectoryExtension, type SubgraphContext } from '@fi/shared';
import type { AccountItem, AccountRepository } from '../data/accountRepository';
import { createAccountLoaders, type AccountLoaders, type ContactRef } from './accountLinkLoaders';

export interface AccountsContext extends SubgraphContext {
  links: AccountLoaders;
}

/** The account of a contact, and what an account links by (for the contacts and feedback services). */
export function accountLinks(repository: AccountRepository): DirectoryExtension<AccountsContext> {
  const model = repository.model;
  return {
    resolvers: {
      ContactItem: {
        __resolveReference: scopedReference<ContactRef & { id: string }>('contact'),
        account: (contact: ContactRef, _: unknown, ctx: AccountsContext) => ctx.links.contactAccounts.load(contact),
      },
      AccountItem: {
        linkDomain: (account: AccountItem, _: unknown, ctx: AccountsContext) => ctx.links.linkKeys.load({ account, kind: 'domain' }),
        linkName: (account: AccountItem, _: unknown, ctx: AccountsContext) => ctx.links.linkKeys.load({ account, kind: 'name' }),
      },
    },
    extendContext: (base) => ({ ...base, links: createAccountLoaders(model) }),
  };
}
