import type { FeedbackPage, FeedbackQuery } from '../model/feedbackQuery';
import type { ItemLists, SearchAnswers } from './ports';

/**
 * A page of the organization's items. A search is answered by the search index when there is one that
 * can (see search/), else by the items themselves (a literal, case-insensitive match of every item).
 */
export async function listFeedback(
  deps: { items: ItemLists; search?: SearchAnswers },
  orgId: string,
  query: FeedbackQuery,
): Promise<FeedbackPage> {
  const search = query.search;
  const indexed = search !== undefined && deps.search ? await deps.search.search(orgId, { ...query, search }) : null;
  return indexed ?? deps.items.list(orgId, query);
}
