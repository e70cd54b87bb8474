import { directoryExportSource, type DirectoryRecords } from '@fi/shared';
import type { ContactDocument } from '../data/contactModel';
import type { ContactItem } from '../data/contactRepository';

/**
 * The contact's own fields, as contactItems shows them. totalFeedbacks and lastInteraction are the
 * feedback service's figures about a contact, so they are not in this service's export.
 */
export const CONTACTS_EXPORT_COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'company',
  'title',
  'location',
  'tags',
  'createdAt',
] as const;

export const contactsExportSource = (records: DirectoryRecords<ContactDocument, ContactItem>) =>
  directoryExportSource(records, {
    resource: 'contacts',
    columns: CONTACTS_EXPORT_COLUMNS,
    toRow: ({ orgId: _orgId, storedLastInteraction: _stored, ...contact }) => contact,
  });
