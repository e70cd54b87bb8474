import DataLoader from 'dataloader';
import { companyDomainKey, orgKey } from '@fi/shared';
import { cellCount } from '../core';
import type { LinkStore } from './data/linkStore';

export interface AccountRef {
  orgId: string;
  /** The domain the accounts service says people link to this account by; null links nothing by domain. */
  linkDomain?: string | null;
}

export interface FeedbackSummary {
  total: number;
  positive: number;
  neutral: number;
  negative: number;
  unread: number;
  lastFeedbackAt: Date | null;
}

const empty = (): FeedbackSummary => ({
  total: 0,
  positive: 0,
  neutral: 0,
  negative: 0,
  unread: 0,
  lastFeedbackAt: null,
});

/** `AccountItem.feedbackSummary` for a page of accounts: one read of their domains' kept counts per organization. */
export function createAccountSummaryLoader(store: LinkStore): DataLoader<AccountRef, FeedbackSummary, string> {
  const keyOf = (ref: AccountRef) => {
    const domain = companyDomainKey(ref.linkDomain);
    return domain ? orgKey(ref.orgId, domain) : null;
  };
  return new DataLoader<AccountRef, FeedbackSummary, string>(
    async (refs) => {
      const domainsByOrg = new Map<string, Set<string>>();
      for (const ref of refs) {
        const domain = companyDomainKey(ref.linkDomain);
        if (domain) domainsByOrg.set(ref.orgId, (domainsByOrg.get(ref.orgId) ?? new Set()).add(domain));
      }
      const summaries = new Map<string, FeedbackSummary>();
      await Promise.all(
        [...domainsByOrg].map(async ([orgId, domains]) => {
          for (const [domain, cell] of await store.domainFigures(orgId, [...domains])) {
            const total = cellCount(cell);
            summaries.set(orgKey(orgId, domain), {
              total,
              positive: cellCount(cell, undefined, 'positive'),
              neutral: cellCount(cell, undefined, 'neutral'),
              negative: cellCount(cell, undefined, 'negative'),
              unread: cellCount(cell, 'unread'),
              lastFeedbackAt: total > 0 ? cell.newest : null,
            });
          }
        }),
      );
      return refs.map((ref) => summaries.get(keyOf(ref) ?? '') ?? empty());
    },
    { cacheKeyFn: (ref) => keyOf(ref) ?? '' },
  );
}
