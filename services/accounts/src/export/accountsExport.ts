import { directoryExportSource, type DirectoryRecords } from '@fi/shared';
import type { AccountDocument } from '../data/accountModel';
import type { AccountItem } from '../data/accountRepository';

/** The account's own fields, as accountItems shows them (feedbackSummary is the feedback service's). */
export const ACCOUNTS_EXPORT_COLUMNS = [
  'id',
  'name',
  'domain',
  'description',
  'website',
  'score',
  'churnRisk',
  'tags',
  'createdAt',
] as const;

export const accountsExportSource = (records: DirectoryRecords<AccountDocument, AccountItem>) =>
  directoryExportSource(records, {
    resource: 'accounts',
    columns: ACCOUNTS_EXPORT_COLUMNS,
    toRow: ({ orgId: _orgId, domainKey: _domainKey, nameKey: _nameKey, ...account }) => account,
  });
