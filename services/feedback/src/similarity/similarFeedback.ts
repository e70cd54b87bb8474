import { badRequest } from '@fi/shared';
import type { FeedbackItem } from '../core';
import type { OrgSimilarity } from './orgSimilarity';

export const MAX_SIMILAR = 20;
/** Below this cosine similarity two items share little more than a common word: not worth proposing. */
export const MIN_SIMILARITY = 0.08;
/** Below this cosine similarity of two embedding vectors, items are on different subjects (see docs/ai.md). */
export const MIN_VECTOR_SIMILARITY = 0.3;

export interface SimilarFeedback {
  item: FeedbackItem;
  score: number;
}

/** The organization's items most similar to `item`, best first (never the item itself, never another organization's). */
export async function similarFeedback(
  deps: { similarity: OrgSimilarity; items: { findAmong(orgId: string, ids: string[]): Promise<FeedbackItem[]> } },
  item: FeedbackItem,
  take: number,
): Promise<SimilarFeedback[]> {
  if (!Number.isInteger(take) || take < 0 || take > MAX_SIMILAR) {
    throw badRequest(`take must be between 0 and ${MAX_SIMILAR} (got ${take})`, { argument: 'take' });
  }
  if (take === 0) return [];
  // A few more than asked: an item deleted since the index read it is dropped here.
  const found = await candidates(deps.similarity, item, take + 5);
  // One read for all of them: the field holds one place of its organization's bulkhead, and one place
  // must be one database operation, not a read per candidate (25 at once for take 20).
  const read = await deps.items.findAmong(
    item.orgId,
    found.map(({ id }) => id),
  );
  const items = new Map(read.map((similar) => [similar.id, similar]));
  const results: SimilarFeedback[] = [];
  for (const { id, score } of found) {
    const similar = items.get(id);
    if (similar) results.push({ item: similar, score });
    else deps.similarity.forget(item.orgId, id);
  }
  return results.slice(0, take);
}

/**
 * With an embedding model, the items closest by their vectors, then those the model has not embedded yet
 * as the local method finds them; without one (or before the item itself is embedded), the local method.
 * The local index is only built and refreshed when the vectors do not answer enough.
 */
async function candidates(
  similarity: OrgSimilarity,
  item: FeedbackItem,
  take: number,
): Promise<Array<{ id: string; score: number }>> {
  const byVectors = await similarity.vectors.nearest(item.orgId, item.id, take, MIN_VECTOR_SIMILARITY);
  if (byVectors && byVectors.length >= take) return byVectors;
  const index = await similarity.indexOf(item.orgId);
  if (!byVectors) return index.similar(item, take, MIN_SIMILARITY);
  const local = index.similar(item, take, MIN_SIMILARITY, new Set(byVectors.map(({ id }) => id)));
  // Items whose vectors `nearest` compared are not proposed again by their terms.
  const embedded = similarity.vectors.compared(
    item.orgId,
    local.map(({ id }) => id),
  );
  return [...byVectors, ...local.filter(({ id }) => !embedded.has(id))].slice(0, take);
}
