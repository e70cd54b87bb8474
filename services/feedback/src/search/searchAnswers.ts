import type { FeedbackRepository, FeedbackTombstones, SearchAnswers } from '../core';
import type { IndexStore } from './data/indexStore';
import { indexedState, scopeIds, searchScope } from './indexedSearch';
import { indexedSearchPage, indexedSearchReads, searchOnly, type IndexedItemReads } from './indexedSearchPage';
import type { SearchPath } from './searchMetrics';

/**
 * The core's list asks the index for a search of three or more characters: the index answers it alone
 * when it can (indexedSearchPage.ts), else its matches and the items it does not hold yet are read from
 * the items; an organization not indexed yet (or a shorter term) is left to the items' regex.
 * `searched` hears how each search was answered (the service's metrics).
 */
export function searchAnswers(
  index: IndexStore,
  repository: FeedbackRepository,
  tombstones: FeedbackTombstones,
  searched: (path: SearchPath) => void = () => undefined,
): SearchAnswers {
  const items: IndexedItemReads = {
    total: (orgId) => repository.total(orgId),
    countAfterId: (orgId, after) => repository.countAfterId(orgId, after),
    newestAfterId: (orgId, query, after, position, limit) =>
      repository.newestAfterId(orgId, query, after, position, limit),
    countMatchingAfterId: (orgId, query, after) => repository.countMatchingAfterId(orgId, query, after),
    findAmong: (orgId, ids) => repository.findAmong(orgId, ids),
    liveAmong: (orgId, ids) => repository.liveAmong(orgId, ids),
    removedAfter: (orgId, from, before, limit) => tombstones.removedAfter(orgId, from, before, limit),
  };
  return {
    async search(orgId, query) {
      const state = await indexedState(index, orgId, query.search);
      if (!state) {
        searched('regex');
        return null;
      }
      // The reads of an answer by the index alone need only its state: they go beside the scope's.
      const [scope, reads] = await Promise.all([
        searchScope(index, orgId, query.search, state),
        searchOnly(query) ? indexedSearchReads(items, orgId, query, state) : null,
      ]);
      const indexed = reads && (await indexedSearchPage(items, orgId, query, scope, reads));
      searched(indexed ? 'index' : 'matches');
      return indexed ?? repository.listAmong(orgId, query, { ids: scopeIds(scope), after: state.watermark });
    },
  };
}
