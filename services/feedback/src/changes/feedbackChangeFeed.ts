import { changeFeed, type ChangeFeed, type ChangeSource } from '@fi/shared';
import type { FeedbackItem } from '../data/feedbackItem';
import type { FeedbackRepository } from '../data/feedbackRepository';
import type { FeedbackTombstones } from '../data/feedbackTombstones';

/**
 * feedbackChanges: live items by their last change, and the tombstones of removed and merged ones. A tombstone
 * whose item still exists (its removal failed after the tombstone was written) holds its place but is
 * not listed; a retried removal writes it again with a new time.
 */
export function feedbackChangeFeed(repository: FeedbackRepository, tombstones: FeedbackTombstones, settleMs: number): ChangeFeed<FeedbackItem> {
  const live: ChangeSource<FeedbackItem> = { after: (orgId, from, before, limit) => repository.changedAfter(orgId, from, before, limit) };
  const removed: ChangeSource<FeedbackItem> = {
    async after(orgId, from, before, limit) {
      const removals = await tombstones.removedAfter(orgId, from, before, limit);
      const existing = await repository.existingIds(removals.map((removal) => removal.id));
      return removals.map((removal) => ({ type: removal.kind, id: removal.id, at: removal.at, item: null, skip: existing.has(removal.id) }));
    },
  };
  return changeFeed('feedback', [live, removed], settleMs);
}
