// The feedback service's public face: what the CLI, the tests and the bench may use. The process entry is main.ts.
export { feedbackConfigSchema, loadFeedbackConfig, type FeedbackConfig } from './config';
export { FEEDBACK_SCHEMA_PATH, startFeedbackService } from './server';
export { FeedbackRepository } from './data/feedbackRepository';
export type { FeedbackRecord } from './data/feedbackItem';
export { feedbackImporter } from './feedbackImporter';
export { recountOrganization, recountOrganizations, type RecountReport } from './data/recount';
export { deltaOf, type CountDelta, type CountedItem } from './domain/countDelta';
export { feedbackKeyBackfill } from './data/feedbackKeyBackfill';
export { SentimentBackfillStore, type ComputedSentiment } from './data/sentimentBackfillStore';
export { backfillSentiment } from './domain/sentiment/backfillSentiment';
export { checkImportedFeedback } from './domain/newFeedback';
export { SENTIMENTS, STATUSES } from './domain/feedbackValues';
export { webhookConfigSchema } from './webhooks/webhookConfig';
export { webhookEndpoints } from './webhooks/webhooks';
export { ThemeStore } from './themes/themeStore';
export { recomputeThemes } from './themes/themeWorker';
export { computeThemes } from './themes/themeClustering';
