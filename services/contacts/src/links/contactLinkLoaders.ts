import DataLoader from 'dataloader';
import {
  byArguments,
  companyDomainKey,
  EMPTY_GROUP_PAGE,
  firstByKey,
  groupedPages,
  matchKey,
  orgKey,
  type Page,
  type PageResult,
} from '@fi/shared';
import type { ContactLinkQueries } from '../data/contactLinkQueries';
import type { ContactDocument } from '../data/contactModel';
import { toContactItem, type ContactItem } from '../data/contactRepository';

export interface AuthorRef {
  orgId: string;
  email?: string | null;
}

/** An account as the accounts service hands it over: the domain and name it links people by, if any. */
export interface AccountRef {
  orgId: string;
  linkDomain?: string | null;
  linkName?: string | null;
}

const byDomain = (orgId: string, domain: string) => orgKey(orgId, `domain:${domain}`);
const byName = (orgId: string, name: string) => orgKey(orgId, `name:${name}`);

/**
 * The account key a contact links by: its email's company domain, else (no email, or a free-mail
 * address) its company name. One key only, so every contact belongs to at most one account.
 */
export function contactLinkKey(contact: Pick<ContactDocument, 'orgId' | 'emailDomain' | 'companyKey'>): string | null {
  const domain = companyDomainKey(contact.emailDomain);
  if (domain) return byDomain(contact.orgId, domain);
  return contact.companyKey ? byName(contact.orgId, contact.companyKey) : null;
}

function accountLinkKeys(account: AccountRef): string[] {
  const keys: string[] = [];
  const domain = companyDomainKey(account.linkDomain);
  const name = matchKey(account.linkName);
  if (domain) keys.push(byDomain(account.orgId, domain));
  if (name) keys.push(byName(account.orgId, name));
  return keys;
}

/** Authors of a page of feedback items: one query for the whole page, the oldest contact per email. */
export function createAuthorLoader(queries: ContactLinkQueries): DataLoader<AuthorRef, ContactItem | null, string> {
  return new DataLoader<AuthorRef, ContactItem | null, string>(
    async (refs) => {
      const wanted = refs.flatMap((ref) => (matchKey(ref.email) ? [ref] : []));
      if (wanted.length === 0) return refs.map(() => null);
      const docs = await queries.byEmails(
        new Set(wanted.map((ref) => ref.orgId)),
        new Set(wanted.flatMap((ref) => matchKey(ref.email) ?? [])),
      );
      const first = firstByKey(docs, (doc) => (doc.emailLower ? [orgKey(doc.orgId, doc.emailLower)] : []));
      return refs.map((ref) => {
        const email = matchKey(ref.email);
        const doc = email ? first.get(orgKey(ref.orgId, email)) : undefined;
        return doc ? toContactItem(doc) : null;
      });
    },
    { cacheKeyFn: (ref) => orgKey(ref.orgId, matchKey(ref.email) ?? '') },
  );
}

export interface AccountContactsKey {
  account: AccountRef;
  args: Page;
}

/**
 * The people of a page of accounts: one query for all of them (newest first, streamed), paged per
 * account in memory. An account lists exactly the contacts whose `account` it is.
 */
export function createAccountContactsLoader(
  queries: ContactLinkQueries,
): DataLoader<AccountContactsKey, PageResult<ContactItem>, string> {
  return new DataLoader<AccountContactsKey, PageResult<ContactItem>, string>(
    async (keys) => {
      const results = new Map<AccountContactsKey, PageResult<ContactItem>>();
      for (const group of byArguments(keys).values()) {
        const page = group[0].args;
        const wanted = new Set(group.flatMap((key) => accountLinkKeys(key.account)));
        const domains = new Set<string>();
        const names = new Set<string>();
        for (const { account } of group) {
          const domain = companyDomainKey(account.linkDomain);
          const name = matchKey(account.linkName);
          if (domain) domains.add(domain);
          if (name) names.add(name);
        }
        const pages =
          wanted.size === 0
            ? new Map()
            : await groupedPages(
                queries.byDomainsOrCompanies(new Set(group.map((key) => key.account.orgId)), domains, names),
                (doc: ContactDocument) => {
                  const key = contactLinkKey(doc);
                  return key && wanted.has(key) ? [key] : [];
                },
                // Every group is paged alone below: an account may link by domain and by name.
                { skip: 0, take: page.skip + page.take },
              );
        for (const key of group) results.set(key, accountPage(key, pages, page));
      }
      return keys.map((key) => results.get(key) as PageResult<ContactItem>);
    },
    {
      cacheKeyFn: (key) => JSON.stringify([key.account.orgId, key.account.linkDomain, key.account.linkName, key.args]),
    },
  );
}

/** Merges the account's domain and name groups (both newest first) and takes its page. */
function accountPage(
  key: AccountContactsKey,
  pages: Map<string, { items: ContactDocument[]; total: number }>,
  page: Page,
): PageResult<ContactItem> {
  const groups = accountLinkKeys(key.account).map((linkKey) => pages.get(linkKey) ?? EMPTY_GROUP_PAGE);
  const merged = groups
    .flatMap((group) => group.items)
    .sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b._id.toHexString().localeCompare(a._id.toHexString()),
    );
  return {
    items: merged.slice(page.skip, page.skip + page.take).map(toContactItem),
    total: groups.reduce((sum, group) => sum + group.total, 0),
  };
}
