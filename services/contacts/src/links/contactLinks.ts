import type DataLoader from 'dataloader';
import { scopedReference, toPage, type DirectoryExtension, type PageResult, type SubgraphContext } from '@fi/shared';
import type { ContactItem, ContactRepository } from '../data/contactRepository';
import {
  createAccountContactsLoader,
  createAuthorLoader,
  type AccountContactsKey,
  type AccountRef,
  type AuthorRef,
} from './contactLinkLoaders';

export interface ContactsContext extends SubgraphContext {
  authors: DataLoader<AuthorRef, ContactItem | null, string>;
  accountContacts: DataLoader<AccountContactsKey, PageResult<ContactItem>, string>;
}

/** The fields the contacts service adds to feedback items (their author) and accounts (their people). */
export function contactLinks(repository: ContactRepository): DirectoryExtension<ContactsContext> {
  const model = repository.model;
  return {
    resolvers: {
      FeedbackItem: {
        __resolveReference: scopedReference<AuthorRef & { id: string }>('feedback'),
        contact: (item: AuthorRef, _: unknown, ctx: ContactsContext) => ctx.authors.load(item),
      },
      AccountItem: {
        __resolveReference: scopedReference<AccountRef & { id: string }>('account'),
        contacts: (account: AccountRef, args: { skip?: number | null; take?: number | null }, ctx: ContactsContext) =>
          ctx.accountContacts.load({ account, args: toPage(args) }),
      },
    },
    extendContext: (base) => ({
      ...base,
      authors: createAuthorLoader(model),
      accountContacts: createAccountContactsLoader(model),
    }),
  };
}

