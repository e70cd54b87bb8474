// What the feedback service adds to contacts and accounts (ContactItem.totalFeedbacks, feedback and
// lastInteraction; AccountItem.feedbackSummary), batched per request.
export { LinkStore } from './data/linkStore';
export { createFeedbackLinkLoaders, type FeedbackLinkLoaders, type LinksContext } from './feedbackLinks';
export { createLinkResolvers } from './linkResolvers';
export type { AccountRef } from './accountSummaryLoader';
export type { ContactRepresentation } from './contactStatsLoader';
export { lastInteraction } from './lastInteraction';
