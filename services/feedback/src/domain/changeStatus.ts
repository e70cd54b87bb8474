import { appError, badRequest, ErrorCode, forbidden, requireOneOf, STATUSES, type Caller } from '@fi/shared';
import type { FeedbackStatusStore, StatusChange } from '../data/feedbackStatusStore';

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
export async function changeStatus(store: FeedbackStatusStore, caller: Caller, id: string, status: string): Promise<StatusChange> {
  const wanted = requireStatus(status);
  const current = (await store.findOwn(caller.orgId, [id])).get(id.toLowerCase());
  if (!current) throw forbidden(FEEDBACK_NOT_FOUND);
  if (caller.readOnly) throw forbidden(NOT_AUTHORIZED_TO_UPDATE);
  const change = await store.setStatus(current, wanted);
  if (!change) throw forbidden(FEEDBACK_NOT_FOUND);
  return change;
}

/**
 * Moves 1 to 100 items to a status. Every id is checked first: when any is not the organization's,
 * nothing changes and the error lists them. Then each item changes atomically on its own (no
 * transactions on every supported server): a failure of the database midway can leave the earlier
 * items changed, and repeating the request completes it, since setting the current status changes
 * nothing. Returns the changes of the items whose status was different (what `Int!` counts).
 */
export async function changeStatuses(store: FeedbackStatusStore, caller: Caller, ids: string[], status: string): Promise<StatusChange[]> {
  const wanted = requireStatus(status);
  if (ids.length < 1 || ids.length > MAX_STATUS_IDS) {
    throw badRequest(`ids must hold 1 to ${MAX_STATUS_IDS} ids (got ${ids.length})`, { argument: 'ids', min: 1, max: MAX_STATUS_IDS });
  }
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await store.findOwn(caller.orgId, unique);
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw appError(ErrorCode.FORBIDDEN, `${FEEDBACK_NOT_FOUND}: ${missing.map(shown).join(', ')}`, { ids: missing.map(shown) });
  }
  if (caller.readOnly) throw forbidden(NOT_AUTHORIZED_TO_UPDATE);
  const changes = await Promise.all([...found.values()].map((doc) => store.setStatus(doc, wanted)));
  return changes.filter((change): change is StatusChange => change !== null && change.changed);
}
