import type DataLoader from 'dataloader';
import type { PageResult, SubgraphContext } from '@fi/shared';
import { contactLinkQueries } from '../data/contactLinkQueries';
import type { ContactItem, ContactRepository } from '../data/contactRepository';
import {
  createAccountContactsLoader,
  createAuthorLoader,
  type AccountContactsKey,
  type AuthorRef,
} from './contactLinkLoaders';

export interface ContactsContext extends SubgraphContext {
  authors: DataLoader<AuthorRef, ContactItem | null, string>;
  accountContacts: DataLoader<AccountContactsKey, PageResult<ContactItem>, string>;
}

/** Per-request loaders of what the contacts service adds to feedback items (their author) and accounts (their people). */
export function contactsContext(repository: ContactRepository) {
  const queries = contactLinkQueries(repository);
  return (base: SubgraphContext): ContactsContext => ({
    ...base,
    authors: createAuthorLoader(queries),
    accountContacts: createAccountContactsLoader(queries),
  });
}
