import { gql } from '@urql/core';
import type { DirectoryDefinition } from '../directory/directoryTypes';

export interface Contact {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  title: string | null;
  location: string | null;
  tags: string[];
  createdAt: string;
}

const FIELDS = 'id name email phone company title location tags createdAt';
const REPORT = 'report: importContacts(csv: $csv, dryRun: $dryRun) { rows imported problems { row field message } }';

/** The contacts service's admin API, as the directory pages use it (limits: the service's own). */
export const CONTACTS: DirectoryDefinition<Contact> = {
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
  list: gql`query Contacts($search: String, $skip: Int!, $take: Int!) { page: contacts(search: $search, skip: $skip, take: $take) { total items { ${FIELDS} } } }`,
  create: gql`mutation CreateContact($input: ContactInput!) { saved: createContact(input: $input) { ${FIELDS} } }`,
  update: gql`mutation UpdateContact($id: String!, $input: ContactInput!) { saved: updateContact(id: $id, input: $input) { ${FIELDS} } }`,
  remove: gql`
    mutation DeleteContact($id: String!) {
      removed: deleteContact(id: $id)
    }
  `,
  importCsv: gql`mutation ImportContacts($csv: String!, $dryRun: Boolean!) { ${REPORT} }`,
};
