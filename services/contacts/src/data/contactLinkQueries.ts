import type { ContactDocument } from './contactModel';
import type { ContactRepository } from './contactRepository';

const OLDEST_FIRST = { createdAt: 1, _id: 1 } as const;
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** What the link loaders read: contacts by the keys feedback and accounts link to them with. */
export interface ContactLinkQueries {
  /** The contacts of these organizations with these lower-cased emails, oldest first, in one query. */
  byEmails(orgIds: Iterable<string>, emails: Iterable<string>): Promise<ContactDocument[]>;
  /** The contacts of these organizations whose email domain or company key is one of these, newest first, streamed. */
  byDomainsOrCompanies(
    orgIds: Iterable<string>,
    domains: Iterable<string>,
    companies: Iterable<string>,
  ): AsyncIterable<ContactDocument>;
}

export function contactLinkQueries(repository: ContactRepository): ContactLinkQueries {
  return {
    byEmails: (orgIds, emails) =>
      repository.model
        .find({ orgId: { $in: [...orgIds] }, emailLower: { $in: [...emails] } })
        .sort(OLDEST_FIRST)
        .lean<ContactDocument[]>(),
    byDomainsOrCompanies: (orgIds, domains, companies) =>
      repository.model
        .find({
          orgId: { $in: [...orgIds] },
          $or: [{ emailDomain: { $in: [...domains] } }, { companyKey: { $in: [...companies] } }],
        })
        .sort(NEWEST_FIRST)
        .lean<ContactDocument>()
        .cursor(),
  };
}
