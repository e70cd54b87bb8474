import type { SubgraphContext } from '@fi/shared';
import { accountLinkQueries } from '../data/accountLinkQueries';
import type { AccountRepository } from '../data/accountRepository';
import { createAccountLoaders, type AccountLoaders } from './accountLinkLoaders';

export interface AccountsContext extends SubgraphContext {
  links: AccountLoaders;
}

/** Per-request loaders of the account of a contact, and of what an account links by (for the contacts and feedback services). */
export function accountsContext(repository: AccountRepository) {
  const queries = accountLinkQueries(repository);
  return (base: SubgraphContext): AccountsContext => ({ ...base, links: createAccountLoaders(queries) });
}
