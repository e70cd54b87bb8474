import { directoryExportSource } from '@fi/shared';
import type { AccountRepository } from '../data/accountRepository';

/** The account's own fields, as accountItems shows them (feedbackSummary is the feedback service's). */
export const ACCOUNTS_EXPORT_COLUMNS = ['id', 'name', 'domain', 'description', 'website', 'score', 'churnRisk', 'tags', 'createdAt'] as const;

export const accountsExportSource = (repository: AccountRepository) =>
  directoryExportSource(repository, {
    resource: 'accounts',
    columns: ACCOUNTS_EXPORT_COLUMNS,
    toRow: ({ orgId: _orgId, domainKey: _domainKey, nameKey: _nameKey, ...account }) => account,
  });
