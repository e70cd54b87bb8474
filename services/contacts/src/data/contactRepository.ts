import { emailDomainOf, matchKey } from '@fi/shared';
import { OrgScopedRepository, type Connection } from '@fi/shared/database';
import type { ContactItem } from '../model/contact';
import { contactModel, type ContactDocument } from './contactModel';

export type { ContactItem };

export function toContactItem(doc: ContactDocument): ContactItem {
  return {
    id: doc._id.toHexString(),
    orgId: doc.orgId,
    name: doc.name,
    email: doc.email ?? null,
    phone: doc.phone ?? null,
    company: doc.company ?? null,
    title: doc.title ?? null,
    location: doc.location ?? null,
    tags: doc.tags ?? [],
    storedLastInteraction: doc.lastInteraction ?? null,
    createdAt: doc.createdAt,
  };
}

/** The match keys stored beside a contact, so links are found through indexes. */
export function contactMatchKeys(
  contact: Pick<ContactDocument, 'email' | 'company'>,
): Pick<ContactDocument, 'emailLower' | 'emailDomain' | 'companyKey'> {
  return {
    emailLower: matchKey(contact.email),
    emailDomain: emailDomainOf(contact.email),
    companyKey: matchKey(contact.company),
  };
}

export type ContactRepository = OrgScopedRepository<ContactDocument, ContactItem>;

export function createContactRepository(connection: Connection): ContactRepository {
  return new OrgScopedRepository(
    contactModel(connection),
    toContactItem,
    ['name', 'email', 'company'],
    contactMatchKeys,
  );
}
