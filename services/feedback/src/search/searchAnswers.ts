import type { FeedbackQuery, FeedbackRepository, FeedbackTombstones, SearchAnswers } from '../core';
import type { IndexStore } from './data/indexStore';
import { indexedState, scopeIds, searchScope } from './indexedSearch';
import {
  indexedSearchPage,
  indexedSearchReads,
  searchOnly,
  searchTail,
  type IndexedItemReads,
  type SearchTail,
} from './indexedSearchPage';
import { termGrams } from './searchText';
import type { SearchPath } from './searchMetrics';

/** An id before every item's: the whole organization is the tail. */
const NO_ID = '0'.repeat(24);

/**
 * The core's list asks the index for a search of three or more characters: the index answers it alone
 * when it can (indexedSearchPage.ts), else its matches and the items it does not hold yet are read from
 * the items; an organization not indexed yet is searched in its items by regex, as is a shorter term.
 * Items the index does not hold are read by regex only up to the newest TAIL_SEARCHED_AT_MOST (right
 * after a large import): the answer then says how far it reached (`searchReach`). `searched` hears how
 * each search was answered (the service's metrics).
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
    newestAfter: (orgId, after, limit) => repository.newestAfter(orgId, after, limit),
    findAmong: (orgId, ids) => repository.findAmong(orgId, ids),
    liveAmong: (orgId, ids) => repository.liveAmong(orgId, ids),
    removedAfter: (orgId, from, before, limit) => tombstones.removedAfter(orgId, from, before, limit),
  };
  /** The items' own answer over the index's matches (`ids`) and the tail it reads. */
  const matches = async (orgId: string, query: FeedbackQuery, ids: string[], tail: SearchTail) => {
    const page = await repository.listAmong(orgId, query, { ids, after: tail.after ?? NO_ID, tail: tail.items });
    return tail.reach ? { ...page, searchReach: tail.reach } : page;
  };
  return {
    async search(orgId, query) {
      if (!termGrams(query.search)) {
        searched('regex');
        return null;
      }
      const state = await indexedState(index, orgId, query.search);
      const tail = await searchTail(items, orgId, state?.watermark ?? null);
      if (!state) {
        // Not indexed yet: the regex over every item, or over the newest ones when there are too many.
        searched(tail.reach ? 'matches' : 'regex');
        return tail.reach ? matches(orgId, query, [], tail) : null;
      }
      // The reads of an answer by the index alone need only its state: they go beside the scope's.
      const [scope, reads] = await Promise.all([
        searchScope(index, orgId, query.search, state),
        searchOnly(query) ? indexedSearchReads(items, orgId, query, state, tail) : null,
      ]);
      const indexed = reads && (await indexedSearchPage(items, orgId, query, scope, reads));
      searched(indexed ? 'index' : 'matches');
      return indexed ?? matches(orgId, query, scopeIds(scope), tail);
    },
  };
}
