// Bulk exports of the organization's contacts (see docs/export.md).
export { CONTACTS_EXPORT_COLUMNS, contactsExportSource } from './contactsExport';
