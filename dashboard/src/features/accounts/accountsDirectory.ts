// The documents are in accounts.graphql; `npm run codegen` types them against the admin API.
import {
  CreateAccountDocument,
  DeleteAccountDocument,
  ImportAccountsDocument,
  UpdateAccountDocument,
  AccountsDocument,
  type AccountFieldsFragment,
  type AccountInput,
} from '../../generated/graphql';
import type { DirectoryDefinition } from '../directory/directoryTypes';

export type Account = AccountFieldsFragment;

const fraction = (value: number | null) => (value === null ? '' : value.toFixed(2));

/** The accounts service's admin API, as the directory pages use it (limits: the service's own). */
export const ACCOUNTS: DirectoryDefinition<Account, AccountInput> = {
  singular: 'account',
  plural: 'accounts',
  title: 'Accounts',
  searchHint: 'Matches part of a name or domain, in any case.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 200 },
    {
      name: 'domain',
      label: 'Domain',
      kind: 'text',
      maxLength: 253,
      hint: 'People whose email is at this domain belong to the account, e.g. acme.com.',
    },
    { name: 'website', label: 'Website', kind: 'url', maxLength: 2000 },
    { name: 'score', label: 'Health score', kind: 'fraction', hint: 'From 0 (poor) to 1 (excellent).' },
    { name: 'churnRisk', label: 'Churn risk', kind: 'fraction', hint: 'From 0 (low risk) to 1 (high risk).' },
    { name: 'description', label: 'Description', kind: 'multiline', maxLength: 5000 },
    { name: 'tags', label: 'Tags', kind: 'tags', hint: 'Separate tags with commas, e.g. enterprise, renewal.' },
  ],
  columns: [
    { label: 'Domain', value: (account) => account.domain ?? '' },
    { label: 'Health score', value: (account) => fraction(account.score) },
    { label: 'Churn risk', value: (account) => fraction(account.churnRisk) },
    { label: 'Tags', value: (account) => account.tags.join(', ') },
  ],
  importHint:
    'The first row names the columns: name (required), domain, description, website, score and churnRisk (0 to 1), tags (separated by ;) and createdAt; an accounts export in CSV works as it is.',
  list: AccountsDocument,
  create: CreateAccountDocument,
  update: UpdateAccountDocument,
  remove: DeleteAccountDocument,
  importCsv: ImportAccountsDocument,
};
