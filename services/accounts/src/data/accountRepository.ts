import { matchKey } from '@fi/shared';
import { OrgScopedRepository, type Connection } from '@fi/shared/database';
import type { AccountItem } from '../model/account';
import { accountModel, type AccountDocument } from './accountModel';

export type { AccountItem };

export function toAccountItem(doc: AccountDocument): AccountItem {
  return {
    id: doc._id.toHexString(),
    orgId: doc.orgId,
    name: doc.name,
    domain: doc.domain ?? null,
    description: doc.description ?? null,
    website: doc.website ?? null,
    score: doc.score ?? null,
    churnRisk: doc.churnRisk ?? null,
    tags: doc.tags ?? [],
    createdAt: doc.createdAt,
    domainKey: doc.domainKey ?? matchKey(doc.domain),
    nameKey: doc.nameKey ?? matchKey(doc.name),
  };
}

/** The match keys stored beside an account, so links are found through indexes. */
export function accountMatchKeys(
  account: Pick<AccountDocument, 'domain' | 'name'>,
): Pick<AccountDocument, 'domainKey' | 'nameKey'> {
  return { domainKey: matchKey(account.domain), nameKey: matchKey(account.name) };
}

export type AccountRepository = OrgScopedRepository<AccountDocument, AccountItem>;

export function createAccountRepository(connection: Connection): AccountRepository {
  return new OrgScopedRepository(accountModel(connection), toAccountItem, ['name', 'domain'], accountMatchKeys);
}
