import { appError, badRequest, ErrorCode, notFound } from '@fi/shared';
import { changeOf } from '../model/change';
import { deltaOf } from '../model/countDelta';
import { mergedEvent, newEvent } from './itemEvents';
import { countedOf, type FeedbackItem, type ItemForChange } from '../model/feedbackItem';
import { writeWithEvent, type ChangeEvents } from './changeEvents';
import { FEEDBACK_NOT_FOUND } from './changeStatus';
import { itemBusy, MAX_CHANGE_ROUNDS } from './contendedWrite';
import type { ItemStore, RemovedItems } from './ports';

export const MAX_DUPLICATES = 100;

export interface MergeDeps {
  items: Pick<ItemStore, 'findById' | 'findForChange' | 'removeUnchanged' | 'restore'>;
  events: ChangeEvents;
  tombstones: RemovedItems;
}

/** 1 to MAX_DUPLICATES ids, none twice, not the item itself. */
function parseDuplicateIds(id: string, duplicateIds: readonly string[]): string[] {
  const argument = { argument: 'duplicateIds' };
  if (duplicateIds.length === 0 || duplicateIds.length > MAX_DUPLICATES) {
    throw badRequest(`duplicateIds must hold 1 to ${MAX_DUPLICATES} ids (got ${duplicateIds.length})`, {
      ...argument,
      min: 1,
      max: MAX_DUPLICATES,
    });
  }
  if (new Set(duplicateIds).size !== duplicateIds.length)
    throw badRequest('duplicateIds names an id more than once', argument);
  if (duplicateIds.includes(id))
    throw badRequest('duplicateIds must not hold the id of the item they are merged into', argument);
  return [...duplicateIds];
}

/**
 * Merges duplicates into the item `id`: each leaves the live items (so every list, total, theme, insight
 * and contact or account figure) and is kept whole as a merged tombstone until it is unmerged. Every
 * duplicate is checked before anything is written; one already merged into `id` is taken as done, so a
 * retried merge finishes what a failed one began. Each duplicate is its own change (feedback.merged),
 * written like a removal: the tombstone first, then the item goes if nothing changed it since it was read.
 */
export async function mergeFeedback(
  deps: MergeDeps,
  orgId: string,
  id: string,
  duplicateIds: readonly string[],
): Promise<FeedbackItem> {
  const ids = parseDuplicateIds(id, duplicateIds);
  const primary = await deps.items.findById(orgId, id);
  if (!primary) throw notFound(FEEDBACK_NOT_FOUND);
  const pending: ItemForChange[] = [];
  for (const duplicate of ids) {
    const read = await deps.items.findForChange(orgId, duplicate);
    if (read) pending.push(read);
    else if ((await deps.tombstones.findMerged(orgId, duplicate))?.duplicateOf !== id) {
      throw appError(ErrorCode.NOT_FOUND, `${FEEDBACK_NOT_FOUND}: ${duplicate}`, {
        argument: 'duplicateIds',
        id: duplicate,
      });
    }
  }
  for (const read of pending) await mergeOne(deps, orgId, read, id);
  return primary;
}

/** Merges one duplicate, starting from the read that checked it (read again only when it changed meanwhile). */
async function mergeOne(deps: MergeDeps, orgId: string, checked: ItemForChange, into: string): Promise<void> {
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const read = round === 0 ? checked : await deps.items.findForChange(orgId, checked.item.id);
    // Removed or merged by another request meanwhile: nothing left to merge.
    if (!read) return;
    await deps.events.markApplied(read.changeIds ?? []);
    const change = changeOf(mergedEvent(read.item, into), deltaOf(countedOf(read.item), null));
    const merged = await writeWithEvent(deps.events, change, async () => {
      const { id, ...fields } = read.item;
      await deps.tombstones.recordMerged(id, fields, into);
      return (await deps.items.removeUnchanged(read)) ? true : null;
    });
    if (merged) return;
  }
  throw itemBusy();
}

/**
 * Puts a merged duplicate back exactly as it was (feedback.unmerged). An item that is live is returned as
 * it is (never merged, or an earlier unmerge put it back and only forgetting its merge was left).
 */
export async function unmergeFeedback(deps: MergeDeps, orgId: string, id: string): Promise<FeedbackItem> {
  const live = await deps.items.findById(orgId, id);
  const merged = await deps.tombstones.findMerged(orgId, id);
  if (live) {
    if (merged) await deps.tombstones.forgetMerged(id);
    return live;
  }
  if (!merged) throw notFound(FEEDBACK_NOT_FOUND);
  const { duplicateOf: _into, ...item } = merged;
  const change = changeOf(newEvent('feedback.unmerged', item), deltaOf(null, countedOf(item)));
  const restored = await writeWithEvent(deps.events, change, (changeId) => deps.items.restore(item, changeId));
  await deps.tombstones.forgetMerged(id);
  return restored ?? (await deps.items.findById(orgId, id)) ?? item;
}
