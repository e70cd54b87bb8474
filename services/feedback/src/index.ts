// The feedback service's public face: what the CLI, the tests and the bench may use. The process entries
// are main.ts (the API) and worker.ts (the background work).
export {
  feedbackConfigSchema,
  feedbackWorkerConfigSchema,
  loadFeedbackConfig,
  loadFeedbackWorkerConfig,
  type FeedbackConfig,
  type FeedbackWorkerConfig,
} from './config';
export { startFeedbackWorker } from './background';
export { FEEDBACK_SCHEMA_PATH, startFeedbackService } from './server';
export {
  backfillSentiment,
  cellKey,
  checkImportedFeedback,
  deltaOf,
  FeedbackRepository,
  feedbackKeyBackfill,
  FeedbackTombstones,
  SENTIMENTS,
  SentimentBackfillStore,
  STATUSES,
  sumOf,
  type ComputedSentiment,
  type CountDelta,
  type CountedItem,
  type FeedbackRecord,
  type RecountReport,
} from './core';
export { feedbackImporter } from './feedbackImporter';
export { recountOrganization, recountOrganizations } from './recount';
export { webhookConfigSchema, webhookEndpoints } from './webhooks';
export {
  computeThemes,
  computeVectorThemes,
  curateDemoTaxonomy,
  DEMO_TAXONOMY,
  recomputeThemes,
  themeComputationModel,
  ThemeStore,
} from './themes';
export { FEEDBACK_EXPORT_COLUMNS, feedbackExportSource } from './export';
export { SearchIndexStore } from './searchIndex';
export { backfillTimes, indexOrganization, startSearchIndexer } from './search';
export { AiStore, modelThemesOf, monthlyTokens, startModelFeature } from './ai';
export {
  AlertStore,
  BASELINE_DAYS,
  platformSignals,
  binomialUpperTail,
  poissonRateTest,
  shareTest,
  signalsOf,
  decide,
  DEFAULT_RULES,
} from './alerts';
export type { Alert, Signal, AlertRules } from './alerts';
