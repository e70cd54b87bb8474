// The documents are in contacts.graphql; `npm run codegen` types them against the admin API.
import {
  CreateContactDocument,
  DeleteContactDocument,
  ImportContactsDocument,
  UpdateContactDocument,
  ContactsDocument,
  type ContactFieldsFragment,
  type ContactInput,
} from '../../generated/graphql';
import type { DirectoryDefinition } from '../directory/directoryTypes';

export type Contact = ContactFieldsFragment;

/** The contacts service's admin API, as the directory pages use it (limits: the service's own). */
export const CONTACTS: DirectoryDefinition<Contact, ContactInput> = {
  singular: 'contact',
  plural: 'contacts',
  title: 'Contacts',
  searchHint: 'Matches part of a name, email or company, in any case.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 200 },
    { name: 'email', label: 'Email', kind: 'email', maxLength: 320 },
    { name: 'company', label: 'Company', kind: 'text', maxLength: 200 },
    { name: 'title', label: 'Job title', kind: 'text', maxLength: 200 },
    { name: 'phone', label: 'Phone', kind: 'text', maxLength: 50 },
    { name: 'location', label: 'Location', kind: 'text', maxLength: 200 },
    { name: 'tags', label: 'Tags', kind: 'tags', hint: 'Separate tags with commas, e.g. vip, beta.' },
  ],
  columns: [
    { label: 'Email', value: (contact) => contact.email ?? '' },
    { label: 'Company', value: (contact) => contact.company ?? '' },
    { label: 'Job title', value: (contact) => contact.title ?? '' },
    { label: 'Tags', value: (contact) => contact.tags.join(', ') },
  ],
  importHint:
    'The first row names the columns: name (required), email, phone, company, title, location, tags (separated by ;) and createdAt; a contacts export in CSV works as it is.',
  list: ContactsDocument,
  create: CreateContactDocument,
  update: UpdateContactDocument,
  remove: DeleteContactDocument,
  importCsv: ImportContactsDocument,
};
