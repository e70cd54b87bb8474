// Items that say the same thing (`FeedbackItem.similar`): an index of the organization's items kept in
// each API process's memory, refreshed with the items added since it last looked.
export { SimilarityStore } from './data/similarityStore';
export { OrgSimilarity } from './orgSimilarity';
export { similarFeedback, type SimilarFeedback } from './similarFeedback';
