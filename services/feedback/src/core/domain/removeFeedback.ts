import { changeOf } from '../model/change';
import { deltaOf } from '../model/countDelta';
import { newEvent } from './itemEvents';
import { countedOf } from '../model/feedbackItem';
import { writeWithEvent, type ChangeEvents } from './changeEvents';
import { itemBusy, MAX_CHANGE_ROUNDS } from './contendedWrite';
import type { ItemStore, RemovedItems } from './ports';

type RemoveDeps = {
  items: Pick<ItemStore, 'findById' | 'findForChange' | 'removeUnchanged'>;
  events: ChangeEvents;
  tombstones: RemovedItems;
};

/**
 * Deletes an item (a merged duplicate too); true when this call deleted it, false when the organization has no such item. The
 * `feedback.deleted` event is recorded first; events of earlier changes whose proof is the item's own
 * document are marked applied before that document goes, and so is its tombstone (the changes feed's
 * deletion, and the item for exports that had not read it yet).
 */
export async function removeFeedback(deps: RemoveDeps, orgId: string, id: string): Promise<boolean> {
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const read = await deps.items.findForChange(orgId, id);
    if (!read) return removeMerged(deps, orgId, id);
    await deps.events.markApplied(read.changeIds ?? []);
    // A removal is its own proof (the document is gone): the write names no event.
    const change = changeOf(newEvent('feedback.deleted', read.item), deltaOf(countedOf(read.item), null));
    const removed = await writeWithEvent(deps.events, change, async () => {
      const { id: _id, ...fields } = read.item;
      await deps.tombstones.record(id, fields);
      return (await deps.items.removeUnchanged(read)) ? true : null;
    });
    if (removed) return true;
  }
  throw itemBusy();
}

/**
 * A merged duplicate is deleted for good: its merged tombstone becomes a deletion (kept CHANGES_KEPT_MS,
 * then purged). It left the counts when it was merged, so the change counts nothing.
 */
async function removeMerged(deps: RemoveDeps, orgId: string, id: string): Promise<boolean> {
  const merged = await deps.tombstones.findMerged(orgId, id);
  if (!merged || (await deps.items.findById(orgId, id))) return false;
  const { duplicateOf: _into, ...item } = merged;
  await writeWithEvent(deps.events, changeOf(newEvent('feedback.deleted', item), []), async () => {
    const { id: _id, ...fields } = item;
    await deps.tombstones.record(id, fields);
    return true;
  });
  return true;
}
