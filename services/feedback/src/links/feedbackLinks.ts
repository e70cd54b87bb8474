import type DataLoader from 'dataloader';
import type { FeedbackPage } from '../data/feedbackList';
import type { FeedbackDocument } from '../data/feedbackModel';
import type { Model } from 'mongoose';
import { createAccountSummaryLoader, type AccountRef, type FeedbackSummary } from './accountSummaryLoader';
import { createContactFeedbackLoader, type AuthorFeedbackKey } from './contactFeedbackLoader';

export interface FeedbackLinkLoaders {
  contactFeedback: DataLoader<AuthorFeedbackKey, FeedbackPage, string>;
  accountSummaries: DataLoader<AccountRef, FeedbackSummary, string>;
}

/** One set per request, so batches never mix requests. */
export function createFeedbackLinkLoaders(model: Model<FeedbackDocument>): FeedbackLinkLoaders {
  return { contactFeedback: createContactFeedbackLoader(model), accountSummaries: createAccountSummaryLoader(model) };
}
