// The core's data face, for the stores of features that read the items themselves (a feature's store
// imports only the core): the items' model and document, their list filter, and the FerretDB v1 adapter.
export { feedbackModel, type FeedbackDocument } from './feedbackModel';
export { toItem } from './feedbackDocuments';
export { ANY_SENTIMENT, ANY_STATUS, feedbackFilter, NEWEST_FIRST } from './feedbackList';
export { FEEDBACK_TOMBSTONES } from './feedbackTombstones';
export { dayKeys, idChunks, IDS_PER_QUERY, SMALL_WRITE_BATCH } from './ferretDbV1';
export { idSecondsBefore } from './idTimes';
