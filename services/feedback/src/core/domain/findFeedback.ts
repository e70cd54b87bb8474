import { notFound } from '@fi/shared';
import type { FeedbackItem } from '../model/feedbackItem';
import { FEEDBACK_NOT_FOUND } from './changeStatus';
import type { ItemStore, RemovedItems } from './ports';

/** One item of the organization; a merged duplicate is still there to read (with duplicateOf), until it is deleted. */
export async function findFeedback(
  deps: { items: Pick<ItemStore, 'findById'>; tombstones: Pick<RemovedItems, 'findMerged'> },
  orgId: string,
  id: string,
): Promise<FeedbackItem> {
  const item = (await deps.items.findById(orgId, id)) ?? (await deps.tombstones.findMerged(orgId, id));
  if (!item) throw notFound(FEEDBACK_NOT_FOUND);
  return item;
}
