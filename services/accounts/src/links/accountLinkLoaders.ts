import DataLoader from 'dataloader';
import { companyDomainKey, companyDomainOfEmail, firstByKey, matchKey, orgKey } from '@fi/shared';
import type { AccountLinkQueries } from '../data/accountLinkQueries';
import type { AccountDocument } from '../data/accountModel';
import { toAccountItem, type AccountItem } from '../data/accountRepository';

export interface ContactRef {
  orgId: string;
  email?: string | null;
  company?: string | null;
}

const byDomain = (orgId: string, domain: string) => orgKey(orgId, `domain:${domain}`);
const byName = (orgId: string, name: string) => orgKey(orgId, `name:${name}`);

function keysOf(doc: AccountDocument): string[] {
  const keys: string[] = [];
  const domain = companyDomainKey(doc.domainKey);
  if (domain) keys.push(byDomain(doc.orgId, domain));
  if (doc.nameKey) keys.push(byName(doc.orgId, doc.nameKey));
  return keys;
}

/** Accounts of the given organizations with any of these domains or names, the oldest per key. */
async function findByKeys(
  queries: AccountLinkQueries,
  orgIds: Set<string>,
  domains: Set<string>,
  names: Set<string>,
): Promise<Map<string, AccountDocument>> {
  return firstByKey(await queries.byKeys(orgIds, domains, names), keysOf);
}

export type LinkKind = 'domain' | 'name';

export interface LinkKeyRequest {
  account: AccountItem;
  kind: LinkKind;
}

export interface AccountLoaders {
  /** The account of each contact. */
  contactAccounts: DataLoader<ContactRef, AccountItem | null, string>;
  /**
   * What people link to each account by: its company domain, or its name (for people without a
   * company email); null unless it is the oldest account with that domain or name.
   */
  linkKeys: DataLoader<LinkKeyRequest, string | null, string>;
}

const contactKey = (ref: ContactRef): string | null => {
  const domain = companyDomainOfEmail(ref.email);
  if (domain) return byDomain(ref.orgId, domain);
  const name = matchKey(ref.company);
  return name ? byName(ref.orgId, name) : null;
};

const linkValue = ({ account, kind }: LinkKeyRequest) =>
  kind === 'domain' ? companyDomainKey(account.domainKey) : account.nameKey;

function linkKeyOf(request: LinkKeyRequest): string | null {
  const value = linkValue(request);
  if (!value) return null;
  return request.kind === 'domain' ? byDomain(request.account.orgId, value) : byName(request.account.orgId, value);
}

/** One set per request, each loader one query for a whole page. */
export function createAccountLoaders(queries: AccountLinkQueries): AccountLoaders {
  const linkKeys = new DataLoader<LinkKeyRequest, string | null, string>(
    async (requests) => {
      const found = await findByKeys(
        queries,
        new Set(requests.map((request) => request.account.orgId)),
        new Set(requests.flatMap((request) => (request.kind === 'domain' ? (linkValue(request) ?? []) : []))),
        new Set(requests.flatMap((request) => (request.kind === 'name' ? (linkValue(request) ?? []) : []))),
      );
      return requests.map((request) => {
        const key = linkKeyOf(request);
        return key && found.get(key)?._id.toHexString() === request.account.id ? linkValue(request) : null;
      });
    },
    { cacheKeyFn: (request) => `${request.account.id}:${request.kind}` },
  );

  // The account of a contact: by the company domain of its email; for a contact without one (no
  // email, or a free-mail address), by its company name.
  const contactAccounts = new DataLoader<ContactRef, AccountItem | null, string>(
    async (refs) => {
      const orgIds = new Set<string>();
      const domains = new Set<string>();
      const names = new Set<string>();
      for (const ref of refs) {
        orgIds.add(ref.orgId);
        const domain = companyDomainOfEmail(ref.email);
        const name = matchKey(ref.company);
        if (domain) domains.add(domain);
        else if (name) names.add(name);
      }
      const found = await findByKeys(queries, orgIds, domains, names);
      return refs.map((ref) => {
        const key = contactKey(ref);
        const doc = key ? found.get(key) : undefined;
        if (!doc) return null;
        const account = toAccountItem(doc);
        // The account found by a key is the oldest with it: what it links by is known without a query.
        const request: LinkKeyRequest = { account, kind: companyDomainOfEmail(ref.email) ? 'domain' : 'name' };
        linkKeys.prime(request, linkValue(request));
        return account;
      });
    },
    { cacheKeyFn: (ref) => contactKey(ref) ?? '' },
  );
  return { contactAccounts, linkKeys };
}
