import { newObjectIdHex } from '@fi/shared';
import { countedOf, itemOf, type FeedbackRecord } from '../data/feedbackItem';
import type { FeedbackRepository } from '../data/feedbackRepository';
import { writeWithEvent, type Change, type ChangeEvents } from './changeEvents';
import { sumOf } from './countDelta';

/**
 * Writes checked records (an import, a seed) as one change: one intent with the batch's summed delta,
 * one ordered bulk insert, one count. Returns how many items were written.
 */
export async function importFeedback(deps: { repository: FeedbackRepository; events: ChangeEvents }, orgId: string, records: FeedbackRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const ids = records.map(() => newObjectIdHex());
  const change: Change = {
    id: `imp_${newObjectIdHex()}`,
    type: 'feedback.imported',
    orgId,
    itemId: ids[ids.length - 1],
    occurredAt: new Date(),
    delta: sumOf(records.map((record, i) => [null, countedOf(itemOf(ids[i], orgId, record))])),
    itemIds: ids,
  };
  return (await writeWithEvent(deps.events, change, () => deps.repository.insertBatch(orgId, ids, records))) ?? 0;
}
