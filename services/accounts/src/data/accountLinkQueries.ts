import type { FilterQuery } from 'mongoose';
import type { AccountDocument } from './accountModel';
import type { AccountRepository } from './accountRepository';

// Two accounts with one domain (or name): the oldest is the one linked, the same every time.
const OLDEST_FIRST = { createdAt: 1, _id: 1 } as const;

/** What the link loaders read: accounts by the keys people link to them with. */
export interface AccountLinkQueries {
  /** Accounts of these organizations with any of these domain or name keys, oldest first, in one query. */
  byKeys(orgIds: Iterable<string>, domains: Iterable<string>, names: Iterable<string>): Promise<AccountDocument[]>;
}

export function accountLinkQueries(repository: AccountRepository): AccountLinkQueries {
  return {
    async byKeys(orgIds, domains, names) {
      const or: Array<FilterQuery<AccountDocument>> = [];
      const domainKeys = [...domains];
      const nameKeys = [...names];
      if (domainKeys.length > 0) or.push({ domainKey: { $in: domainKeys } });
      if (nameKeys.length > 0) or.push({ nameKey: { $in: nameKeys } });
      if (or.length === 0) return [];
      return repository.model
        .find({ orgId: { $in: [...orgIds] }, $or: or })
        .sort(OLDEST_FIRST)
        .lean<AccountDocument[]>();
    },
  };
}
