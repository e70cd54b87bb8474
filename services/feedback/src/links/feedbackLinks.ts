import type DataLoader from 'dataloader';
import { scopedReference } from '@fi/shared';
import type { FeedbackContext } from '../feedbackContext';
import { parseFeedbackListArgs, type FeedbackListArgs } from '../domain/feedbackListQuery';
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

interface ContactRepresentation {
  orgId: string;
  email?: string | null;
}

/** What the feedback service adds to contacts (their feedback) and accounts (their feedback summary). */
export function feedbackLinkResolvers() {
  return {
    ContactItem: {
      feedback: (contact: ContactRepresentation, args: FeedbackListArgs, ctx: FeedbackContext) =>
        ctx.links.contactFeedback.load({ orgId: contact.orgId, email: contact.email, args: parseFeedbackListArgs(args) }),
    },
    AccountItem: {
      __resolveReference: scopedReference<AccountRef & { id: string }>('account'),
      feedbackSummary: (account: AccountRef, _: unknown, ctx: FeedbackContext) => ctx.links.accountSummaries.load(account),
    },
  };
}
