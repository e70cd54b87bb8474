import { newObjectIdHex } from '@fi/shared/database';
import type { Change } from '../model/change';
import { sumOf } from '../model/countDelta';
import { countedOf, itemOf, type FeedbackRecord } from '../model/feedbackItem';
import { writeWithEvent, type ChangeEvents } from './changeEvents';
import type { ItemStore } from './ports';

/**
 * How long a batch's writer may take per item to write and count it, for the relay to leave it alone
 * (`Change.heldUntil`): a seed's batch of 50,000 items took about 45 s on a quiet 2-core machine with the
 * embedded engine (0.9 ms per item), up to about three times that while other work shares the cores.
 */
const WRITER_MS_PER_ITEM = 10;

/**
 * Writes checked records (an import, a seed) as one change: one intent with the batch's summed delta,
 * one ordered bulk insert, one count. Returns how many items were written.
 */
export async function importFeedback(
  deps: { items: Pick<ItemStore, 'insertBatch'>; events: ChangeEvents },
  orgId: string,
  records: FeedbackRecord[],
): Promise<number> {
  if (records.length === 0) return 0;
  const ids = records.map(() => newObjectIdHex());
  const occurredAt = new Date();
  const change: Change = {
    id: `imp_${newObjectIdHex()}`,
    type: 'feedback.imported',
    orgId,
    itemId: ids[ids.length - 1],
    occurredAt,
    heldUntil: new Date(occurredAt.getTime() + records.length * WRITER_MS_PER_ITEM),
    delta: sumOf(records.map((record, i) => [null, countedOf(itemOf(ids[i], orgId, record))])),
    itemIds: ids,
  };
  return (await writeWithEvent(deps.events, change, () => deps.items.insertBatch(orgId, ids, records))) ?? 0;
}
