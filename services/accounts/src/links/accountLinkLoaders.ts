import DataLoader from 'dataloader';
import { companyDomainKey, companyDomainOfEmail, firstByKey, matchKey, orgKey } from '@fi/shared';
import type { FilterQuery, Model } from 'mongoose';
import type { AccountDocument } from '../data/accountModel';
import { toAccountItem, type AccountItem } from '../data/accountRepository';

export interface ContactRef {
  orgId: string;
  email?: string | null;
  company?: string | null;
}

/** What an account links people by: set only when it is the account people with that key link to. */
export interface AccountLinkKeys {
  linkDomain: string | null;
  linkName: string | null;
}

// Two accounts with one domain (or name): the oldest is the one linked, the same every time.
const OLDEST_FIRST = { createdAt: 1, _id: 1 } as const;

const byDomain = (orgId: string, domain: string) => orgKey(orgId, `domain:${domain}`);
const byName = (orgId: string, name: string) => orgKey(orgId, `name:${name}`);

function keysOf(doc: AccountDocument): string[] {
  const keys: string[] = [];
  const domain = companyDomainKey(doc.domainKey);
  if (domain) keys.push(byDomain(doc.orgId, domain));
  if (doc.nameKey) keys.push(byName(doc.orgId, doc.nameKey));
  return keys;
}

/** Accounts of the given organizations with any of these domains or names, oldest first, in one query. */
async function findByKeys(model: Model<AccountDocument>, orgIds: Set<string>, domains: Set<string>, names: Set<string>): Promise<Map<string, AccountDocument>> {
  const or: Array<FilterQuery<AccountDocument>> = [];
  if (domains.size > 0) or.push({ domainKey: { $in: [...domains] } });
  if (names.size > 0) or.push({ nameKey: { $in: [...names] } });
  if (or.length === 0) return new Map();
  const docs = await model
    .find({ orgId: { $in: [...orgIds] }, $or: or })
    .sort(OLDEST_FIRST)
    .lean<AccountDocument[]>();
  return firstByKey(docs, keysOf);
}

/**
 * The account of each contact of a page, in one query: the account whose domain is the contact's
 * company email domain; for a contact without one (no email, or a free-mail address), the account
 * whose name is the contact's company.
 */
export function createContactAccountLoader(model: Model<AccountDocument>): DataLoader<ContactRef, AccountItem | null, string> {
  const keyOf = (ref: ContactRef): string | null => {
    const domain = companyDomainOfEmail(ref.email);
    if (domain) return byDomain(ref.orgId, domain);
    const name = matchKey(ref.company);
    return name ? byName(ref.orgId, name) : null;
  };
  return new DataLoader<ContactRef, AccountItem | null, string>(
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
      const found = await findByKeys(model, orgIds, domains, names);
      return refs.map((ref) => {
        const key = keyOf(ref);
        const doc = key ? found.get(key) : undefined;
        return doc ? toAccountItem(doc) : null;
      });
    },
    { cacheKeyFn: (ref) => keyOf(ref) ?? '' },
  );
}

/**
 * Whether each account of a page is the one its domain and its name link to (not a younger account
 * with the same domain or name, and not a free-mail domain), in one query.
 */
export function createLinkKeysLoader(model: Model<AccountDocument>): DataLoader<AccountItem, AccountLinkKeys, string> {
  return new DataLoader<AccountItem, AccountLinkKeys, string>(
    async (accounts) => {
      const domains = new Set(accounts.flatMap((account) => companyDomainKey(account.domainKey) ?? []));
      const names = new Set(accounts.flatMap((account) => account.nameKey ?? []));
      const found = await findByKeys(model, new Set(accounts.map((account) => account.orgId)), domains, names);
      return accounts.map((account) => {
        const domain = companyDomainKey(account.domainKey);
        const name = account.nameKey;
        return {
          linkDomain: domain && found.get(byDomain(account.orgId, domain))?._id.toHexString() === account.id ? domain : null,
          linkName: name && found.get(byName(account.orgId, name))?._id.toHexString() === account.id ? name : null,
        };
      });
    },
    { cacheKeyFn: (account) => account.id },
  );
}
