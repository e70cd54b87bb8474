// Search: a trigram index of the items' text kept by the indexer (worker process), which the core's list
// asks for a search; items it does not hold yet are matched by the items' regex.
export { IndexStore } from './data/indexStore';
export { searchAnswers } from './searchAnswers';
export { createSearchMetrics } from './searchMetrics';
export { indexOrganization, startSearchIndexer, type IndexSources } from './searchIndexer';
export { backfillTimes } from './timesBackfill';
export type { OpenImports } from './openImports';
