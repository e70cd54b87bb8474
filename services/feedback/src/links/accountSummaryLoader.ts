import DataLoader from 'dataloader';
import { companyDomainKey, orgKey } from '@fi/shared';
import type { FeedbackRepository } from '../data/feedbackRepository';

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

const empty = (): FeedbackSummary => ({ total: 0, positive: 0, neutral: 0, negative: 0, unread: 0, lastFeedbackAt: null });

/**
 * `AccountItem.feedbackSummary` for a page of accounts in one query, counted here rather than with
 * `$group` (FerretDB v1 lacks `$max`).
 */
export function createAccountSummaryLoader(repository: FeedbackRepository): DataLoader<AccountRef, FeedbackSummary, string> {
  const keyOf = (ref: AccountRef) => {
    const domain = companyDomainKey(ref.linkDomain);
    return domain ? orgKey(ref.orgId, domain) : null;
  };
  return new DataLoader<AccountRef, FeedbackSummary, string>(
    async (refs) => {
      const wanted = refs.filter((ref) => keyOf(ref));
      const summaries = new Map<string, FeedbackSummary>();
      if (wanted.length > 0) {
        const rows = repository.summaryRowsOfDomains(
          [...new Set(wanted.map((ref) => ref.orgId))],
          [...new Set(wanted.map((ref) => companyDomainKey(ref.linkDomain) as string))],
        );
        for await (const row of rows) {
          const key = orgKey(row.orgId, row.emailDomain ?? '');
          const summary = summaries.get(key) ?? empty();
          summaries.set(key, summary);
          summary.total += 1;
          if (row.sentiment === 'positive' || row.sentiment === 'neutral' || row.sentiment === 'negative') summary[row.sentiment] += 1;
          if (row.status === 'unread') summary.unread += 1;
          if (!summary.lastFeedbackAt || row.publishedDate > summary.lastFeedbackAt) summary.lastFeedbackAt = row.publishedDate;
        }
      }
      return refs.map((ref) => summaries.get(keyOf(ref) ?? '') ?? empty());
    },
    { cacheKeyFn: (ref) => keyOf(ref) ?? '' },
  );
}
