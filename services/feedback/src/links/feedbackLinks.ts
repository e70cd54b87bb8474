import type DataLoader from 'dataloader';
import type { FeedbackPage } from '../data/feedbackList';
import type { FeedbackRepository } from '../data/feedbackRepository';
import { createAccountSummaryLoader, type AccountRef, type FeedbackSummary } from './accountSummaryLoader';
import { createContactFeedbackLoader, type AuthorFeedbackKey } from './contactFeedbackLoader';

export interface FeedbackLinkLoaders {
  contactFeedback: DataLoader<AuthorFeedbackKey, FeedbackPage, string>;
  accountSummaries: DataLoader<AccountRef, FeedbackSummary, string>;
}

/** One set per request, so batches never mix requests. */
export function createFeedbackLinkLoaders(repository: FeedbackRepository): FeedbackLinkLoaders {
  return {
    contactFeedback: createContactFeedbackLoader(repository),
    accountSummaries: createAccountSummaryLoader(repository),
  };
}
