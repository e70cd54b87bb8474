import type DataLoader from 'dataloader';
import type { AuthorStats, FeedbackPage } from '../core';
import { createAccountSummaryLoader, type AccountRef, type FeedbackSummary } from './accountSummaryLoader';
import { createContactFeedbackLoader, type AuthorFeedbackKey } from './contactFeedbackLoader';
import { createContactStatsLoader, type ContactRef } from './contactStatsLoader';
import type { LinkStore } from './data/linkStore';

export interface FeedbackLinkLoaders {
  contactFeedback: DataLoader<AuthorFeedbackKey, FeedbackPage, string>;
  accountSummaries: DataLoader<AccountRef, FeedbackSummary, string>;
  contactStats: DataLoader<ContactRef, AuthorStats, string>;
}

/** What the links' resolvers need of a request's context: its loaders. */
export interface LinksContext {
  /** Per-request loaders of what this service adds to contacts and accounts. */
  links: FeedbackLinkLoaders;
}

/** One set per request, so batches never mix requests. */
export function createFeedbackLinkLoaders(store: LinkStore): FeedbackLinkLoaders {
  return {
    contactFeedback: createContactFeedbackLoader(store),
    accountSummaries: createAccountSummaryLoader(store),
    contactStats: createContactStatsLoader(store),
  };
}
