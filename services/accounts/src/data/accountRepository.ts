import { OrgScopedRepository, type Connection } from '@fi/shared';
import { accountModel, type AccountDocument } from './accountModel';

export interface AccountItem {
  id: string;
  name: string;
  domain: string | null;
  description: string | null;
  website: string | null;
  score: number | null;
  churnRisk: number | null;
  tags: string[];
  createdAt: Date;
}

function toItem(doc: AccountDocument): AccountItem {
  return {
    id: doc._id.toHexString(),
    name: doc.name,
    domain: doc.domain ?? null,
    description: doc.description ?? null,
    website: doc.website ?? null,
    score: doc.score ?? null,
    churnRisk: doc.churnRisk ?? null,
    tags: doc.tags ?? [],
    createdAt: doc.createdAt,
  };
}

export type AccountRepository = OrgScopedRepository<AccountDocument, AccountItem>;

export function createAccountRepository(connection: Connection): AccountRepository {
  return new OrgScopedRepository(accountModel(connection), toItem, ['name', 'domain']);
}
