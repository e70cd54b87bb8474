import { badRequest } from '@fi/shared';
import type { FeedbackItem } from '../core';
import type { OrgSimilarity } from './orgSimilarity';

export const MAX_SIMILAR = 20;
/** Below this cosine similarity two items share little more than a common word: not worth proposing. */
export const MIN_SIMILARITY = 0.12;

export interface SimilarFeedback {
  item: FeedbackItem;
  score: number;
}

/** The organization's items most similar to `item`, best first (never the item itself, never another organization's). */
export async function similarFeedback(
  deps: { similarity: OrgSimilarity; items: { findById(orgId: string, id: string): Promise<FeedbackItem | null> } },
  item: FeedbackItem,
  take: number,
): Promise<SimilarFeedback[]> {
  if (!Number.isInteger(take) || take < 0 || take > MAX_SIMILAR) {
    throw badRequest(`take must be between 0 and ${MAX_SIMILAR} (got ${take})`, { argument: 'take' });
  }
  if (take === 0) return [];
  const index = await deps.similarity.indexOf(item.orgId);
  // A few more than asked: an item deleted since the index read it is dropped here.
  const found = index.similar(item, take + 5, MIN_SIMILARITY);
  const items = await Promise.all(found.map(({ id }) => deps.items.findById(item.orgId, id)));
  const results: SimilarFeedback[] = [];
  found.forEach(({ id, score }, i) => {
    const similar = items[i];
    if (similar) results.push({ item: similar, score });
    else deps.similarity.forget(item.orgId, id);
  });
  return results.slice(0, take);
}
