import { appError, badRequest, ErrorCode, forbidden, requireOneOf, type Caller } from '@fi/shared';
import { STATUSES } from './feedbackValues';
import type { FeedbackDocument } from '../data/feedbackModel';
import { countedOf, toItem } from '../data/feedbackItem';
import type { FeedbackStatusStore, StatusChange } from '../data/feedbackStatusStore';
import { newEvent } from '../webhooks/events';
import { changeOf, writeWithEvent, type ChangeEvents } from './changeEvents';
import { deltaOf } from './countDelta';
import { itemBusy, MAX_CHANGE_ROUNDS } from './contendedWrite';

/** The status store and the webhook events every status change records. */
export interface StatusDeps {
  statuses: FeedbackStatusStore;
  events: ChangeEvents;
}

/** Who changes: an API key, or a signed-in member of the web application (read-only: a viewer). */
export type StatusCaller = Pick<Caller, 'orgId' | 'readOnly'>;

export const FEEDBACK_NOT_FOUND = 'Feedback not found';
export const NOT_AUTHORIZED_TO_UPDATE = 'Not authorized to update this feedback';
export const MAX_STATUS_IDS = 100;

// `status` is `String!`, so there is always a value to check.
const requireStatus = (status: string) => requireOneOf('status', status, STATUSES) as string;

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
  status: string,
): Promise<StatusChange> {
  const wanted = requireStatus(status);
  const current = (await deps.statuses.findOwn(caller.orgId, [id])).get(id.toLowerCase());
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
async function applyStatus(deps: StatusDeps, read: FeedbackDocument, wanted: string): Promise<StatusChange | null> {
  let current = read;
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    if (current.status === wanted) return deps.statuses.setStatus(current, wanted);
    const now = new Date();
    const before = toItem(current);
    const event = newEvent(
      'feedback.status_changed',
      { ...before, status: wanted, updatedAt: now },
      { status: before.status, updatedAt: before.updatedAt },
      now,
    );
    const counted = countedOf(before);
    const recorded = changeOf(event, deltaOf(counted, { ...counted, status: wanted }));
    const change = await writeWithEvent(deps.events, recorded, (changeId) =>
      deps.statuses.setStatus(current, wanted, now, changeId),
    );
    if (change) return change;
    const id = current._id.toHexString();
    const again = (await deps.statuses.findOwn(current.orgId, [id])).get(id);
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
  status: string,
): Promise<StatusChange[]> {
  const wanted = requireStatus(status);
  if (ids.length < 1 || ids.length > MAX_STATUS_IDS) {
    throw badRequest(`ids must hold 1 to ${MAX_STATUS_IDS} ids (got ${ids.length})`, {
      argument: 'ids',
      min: 1,
      max: MAX_STATUS_IDS,
    });
  }
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await deps.statuses.findOwn(caller.orgId, unique);
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw appError(ErrorCode.FORBIDDEN, `${FEEDBACK_NOT_FOUND}: ${missing.map(shown).join(', ')}`, {
      ids: missing.map(shown),
    });
  }
  if (caller.readOnly) throw forbidden(NOT_AUTHORIZED_TO_UPDATE);
  const changes = await Promise.all([...found.values()].map((doc) => applyStatus(deps, doc, wanted)));
  return changes.filter((change): change is StatusChange => change !== null && change.changed);
}
