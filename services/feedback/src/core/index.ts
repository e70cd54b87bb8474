// The item core's face: what the features, the service's composition and the public face may use of it.
// The core imports no feature: features read it through this face and react to the change stream.
export * from './model/feedbackItem';
export * from './model/events';
export * from './model/change';
export * from './model/countDelta';
export * from './model/cursor';
export * from './model/feedbackQuery';

export type { ChangeEvents } from './domain/changeEvents';
export type { ExternalIds, IdempotencyKeys, ItemLists, ItemStore, RemovedItems, SearchAnswers } from './domain/ports';
export { addFeedback, parseIdempotencyKey } from './domain/addFeedback';
export { addFeedbackBatch, MAX_BATCH_INPUTS, type BatchOutcome } from './domain/addFeedbackBatch';
export {
  changeStatus,
  changeStatuses,
  FEEDBACK_NOT_FOUND,
  MAX_STATUS_IDS,
  NOT_AUTHORIZED_TO_UPDATE,
  type StatusCaller,
  type StatusDeps,
} from './domain/changeStatus';
export { findFeedback } from './domain/findFeedback';
export { eventIdFor, mergedEvent, newEvent } from './domain/itemEvents';
export { importFeedback } from './domain/importFeedback';
export { listFeedback } from './domain/listFeedback';
export { MAX_DUPLICATES, mergeFeedback, unmergeFeedback, type MergeDeps } from './domain/mergeFeedback';
export { removeFeedback } from './domain/removeFeedback';
export { parseFeedbackListArgs, type FeedbackListArgs } from './domain/feedbackListQuery';
export {
  checkImportedFeedback,
  checkNewFeedback,
  FEEDBACK_LIMITS,
  validateNewFeedback,
  type NewFeedbackInput,
} from './domain/newFeedback';
export { readLanguage } from './domain/language/detectLanguage';
export { analyzeSentiment, feedbackText } from './domain/sentiment/analyzeSentiment';
export { readFeedback, withSentiment } from './domain/sentiment/feedbackSentiment';
export {
  modelMayRead,
  setModelSentiment,
  setPersonSentiment,
  type SentimentDeps,
} from './domain/sentiment/sentimentWrites';
export { backfillSentiment, type SentimentBackfill } from './domain/sentiment/backfillSentiment';
export { rememberRecent } from './domain/sentiment/recentTexts';

export { FeedbackRepository } from './data/feedbackRepository';
export { afterPositionIn, matchingItems } from './data/feedbackList';
export { CountStore, cellCount, type CellDocument } from './data/countStore';
export { FeedbackTombstones } from './data/feedbackTombstones';
export { IDEMPOTENCY_WINDOW_MS, IdempotencyStore } from './data/idempotencyStore';
export { ExternalIdStore } from './data/externalIdStore';
export { SentimentBackfillStore, type ComputedSentiment } from './data/sentimentBackfillStore';
export { feedbackKeyBackfill } from './data/feedbackKeyBackfill';
export { organizationsWithItems, recountCells, type RecountReport } from './data/recount';
