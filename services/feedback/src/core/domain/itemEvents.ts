import { newObjectIdHex } from '@fi/shared/database';
import type { ItemEvent, ItemEventType, PublicItem } from '../model/events';
import type { FeedbackItem } from '../model/feedbackItem';

/**
 * Creation and deletion happen at most once per item, so their ids derive from the item: a retried
 * request or a second concurrent removal names the same event. Other changes get a fresh id, fixed
 * before the change is written.
 */
export function eventIdFor(type: ItemEventType, itemId: string): string {
  if (type === 'feedback.created') return `evt_${itemId}_created`;
  if (type === 'feedback.deleted') return `evt_${itemId}_deleted`;
  return `evt_${newObjectIdHex()}`;
}

export function newEvent(
  type: ItemEventType,
  item: FeedbackItem,
  previous?: Partial<PublicItem>,
  occurredAt = new Date(),
): ItemEvent {
  const { orgId, ...publicItem } = item;
  return {
    id: eventIdFor(type, item.id),
    type,
    orgId,
    itemId: item.id,
    occurredAt,
    data: previous ? { item: publicItem, previous } : { item: publicItem },
  };
}

/** A duplicate merged into `into`: the duplicate as it was, and where it went. */
export function mergedEvent(item: FeedbackItem, into: string): ItemEvent {
  const event = newEvent('feedback.merged', item);
  return { ...event, data: { ...event.data, mergedInto: into } };
}
