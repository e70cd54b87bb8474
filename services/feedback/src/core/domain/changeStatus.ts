import { appError, badRequest, ErrorCode, forbidden, type Caller } from '@fi/shared';
import { changeOf } from '../model/change';
import { deltaOf } from '../model/countDelta';
import { newEvent } from './itemEvents';
import { countedOf, type FeedbackStatus, type ItemForChange, type StatusChange } from '../model/feedbackItem';
import { writeWithEvent, type ChangeEvents } from './changeEvents';
import { itemBusy, MAX_CHANGE_ROUNDS } from './contendedWrite';
import type { ItemStore } from './ports';

/** The items and the change events every status change records. */
export interface StatusDeps {
  items: Pick<ItemStore, 'findOwn' | 'setStatus'>;
  events: ChangeEvents;
}

/** Who changes: an API key, or a signed-in member of the web application (read-only: a viewer). */
export type StatusCaller = Pick<Caller, 'orgId' | 'readOnly'>;

export const FEEDBACK_NOT_FOUND = 'Feedback not found';
export const NOT_AUTHORIZED_TO_UPDATE = 'Not authorized to update this feedback';
export const MAX_STATUS_IDS = 100;

/** Shows at most an id's length of what the caller sent, so an error never echoes a huge argument. */
const shown = (id: string) => (id.length > 24 ? `${id.slice(0, 24)}…` : id);

/**
 * Moves one item to a status (any of unread, read, archived to any other; the current one changes
 * nothing). Rules as for removeFeedbackItem: an item the organization does not have is FORBIDDEN
 * "Feedback not found", for a read-only key too, and a read-only key is refused once the item exists.
 */
export async function changeStatus(
  deps: StatusDeps,
  caller: StatusCaller,
  id: string,
  wanted: FeedbackStatus,
): Promise<StatusChange> {
  const current = (await deps.items.findOwn(caller.orgId, [id])).get(id.toLowerCase());
  if (!current) throw forbidden(FEEDBACK_NOT_FOUND);
  if (caller.readOnly) throw forbidden(NOT_AUTHORIZED_TO_UPDATE);
  const change = await applyStatus(deps, current, wanted);
  if (!change) throw forbidden(FEEDBACK_NOT_FOUND);
  return change;
}

/**
 * One item's change, its `feedback.status_changed` event (previous and new values) recorded before the
 * write and named in it. The write applies only to the status it was read with, so the event's
 * previous value is exact; when another writer got there first, the item is read again.
 */
async function applyStatus(
  deps: StatusDeps,
  read: ItemForChange,
  wanted: FeedbackStatus,
): Promise<StatusChange | null> {
  let current = read;
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    if (current.item.status === wanted) return deps.items.setStatus(current, wanted);
    const now = new Date();
    const before = current.item;
    const event = newEvent(
      'feedback.status_changed',
      { ...before, status: wanted, updatedAt: now },
      { status: before.status, updatedAt: before.updatedAt },
      now,
    );
    const counted = countedOf(before);
    const recorded = changeOf(event, deltaOf(counted, { ...counted, status: wanted }));
    const change = await writeWithEvent(deps.events, recorded, (changeId) =>
      deps.items.setStatus(current, wanted, now, changeId),
    );
    if (change) return change;
    const again = (await deps.items.findOwn(before.orgId, [before.id])).get(before.id);
    if (!again) return null;
    current = again;
  }
  throw itemBusy();
}

/**
 * Moves 1 to 100 items to a status. Every id is checked first: when any is not the organization's,
 * nothing changes and the error lists them. Then each item changes atomically on its own (no
 * transactions on every supported server): a failure of the database midway can leave the earlier
 * items changed, and repeating the request completes it, since setting the current status changes
 * nothing. Returns the changes of the items whose status was different (what `Int!` counts).
 */
export async function changeStatuses(
  deps: StatusDeps,
  caller: StatusCaller,
  ids: string[],
  wanted: FeedbackStatus,
): Promise<StatusChange[]> {
  if (ids.length < 1 || ids.length > MAX_STATUS_IDS) {
    throw badRequest(`ids must hold 1 to ${MAX_STATUS_IDS} ids (got ${ids.length})`, {
      argument: 'ids',
      min: 1,
      max: MAX_STATUS_IDS,
    });
  }
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await deps.items.findOwn(caller.orgId, unique);
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw appError(ErrorCode.FORBIDDEN, `${FEEDBACK_NOT_FOUND}: ${missing.map(shown).join(', ')}`, {
      ids: missing.map(shown),
    });
  }
  if (caller.readOnly) throw forbidden(NOT_AUTHORIZED_TO_UPDATE);
  const changes = await Promise.all([...found.values()].map((read) => applyStatus(deps, read, wanted)));
  return changes.filter((change): change is StatusChange => change !== null && change.changed);
}
