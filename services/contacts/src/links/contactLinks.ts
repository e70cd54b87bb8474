import type DataLoader from 'dataloader';
import type { PageResult, SubgraphContext } from '@fi/shared';
import type { ContactItem, ContactRepository } from '../data/contactRepository';
import { createAccountContactsLoader, createAuthorLoader, type AccountContactsKey, type AuthorRef } from './contactLinkLoaders';

export interface ContactsContext extends SubgraphContext {
  authors: DataLoader<AuthorRef, ContactItem | null, string>;
  accountContacts: DataLoader<AccountContactsKey, PageResult<ContactItem>, string>;
}

/** Per-request loaders of what the contacts service adds to feedback items (their author) and accounts (their people). */
export function contactsContext(repository: ContactRepository) {
  return (base: SubgraphContext): ContactsContext => ({
    ...base,
    authors: createAuthorLoader(repository.model),
    accountContacts: createAccountContactsLoader(repository.model),
  });
}
