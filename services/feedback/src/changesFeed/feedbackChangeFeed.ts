import { changeFeed, recordChangeSources, type ChangeFeed } from '@fi/shared';
import type { FeedbackItem, FeedbackRepository, FeedbackTombstones } from '../core';

/** feedbackChanges: live items by their last change, and the tombstones of removed and merged ones. */
export function feedbackChangeFeed(
  repository: FeedbackRepository,
  tombstones: FeedbackTombstones,
  settleMs: number,
): ChangeFeed<FeedbackItem> {
  return changeFeed('feedback', recordChangeSources(repository, tombstones), settleMs);
}
