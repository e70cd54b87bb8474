import type { FeedbackItem } from './feedbackItem';

/** The changes of an item that are announced as events (webhooks deliver them as they are). */
export const ITEM_EVENT_TYPES = [
  'feedback.created',
  'feedback.status_changed',
  'feedback.deleted',
  'feedback.merged',
  'feedback.unmerged',
] as const;
export type ItemEventType = (typeof ITEM_EVENT_TYPES)[number];

/**
 * An event of the service as receivers see it (the organization is never in what they receive). Items'
 * events are the core's; features announce events of their own (an export's end) in the same shape.
 */
export interface ServiceEvent<T extends string = string, D = unknown> {
  /** Also the `webhook-id` header: the same for every delivery attempt and duplicate of this event. */
  id: string;
  type: T;
  orgId: string;
  /** What the event is about: the feedback item, or the export job. */
  itemId: string;
  occurredAt: Date;
  data: D;
}

/** What receivers see of an item: everything but the organization. */
export type PublicItem = Omit<FeedbackItem, 'orgId'>;

export interface ItemEventData {
  item: PublicItem;
  previous?: Partial<PublicItem>;
  /** feedback.merged: the item the duplicate `item` was merged into. */
  mergedInto?: string;
}

/** One change of a feedback item. */
export type ItemEvent = ServiceEvent<ItemEventType, ItemEventData>;
