// Bulk exports of the organization's accounts (see docs/export.md).
export { ACCOUNTS_EXPORT_COLUMNS, accountsExportSource } from './accountsExport';
