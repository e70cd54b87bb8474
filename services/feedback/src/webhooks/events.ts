import { Types } from 'mongoose';
import type { FeedbackItem } from '../data/feedbackItem';

export const EVENT_TYPES = ['feedback.created', 'feedback.status_changed', 'feedback.deleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One change of a feedback item, as customers receive it (the organization is never in it). */
export interface WebhookEvent {
  /** Also the `webhook-id` header: the same for every delivery attempt and duplicate of this event. */
  id: string;
  type: EventType;
  orgId: string;
  itemId: string;
  occurredAt: Date;
  data: { item: PublicItem; previous?: Partial<PublicItem> };
}

/** What receivers see of an item: everything but the organization. */
export type PublicItem = Omit<FeedbackItem, 'orgId'>;

/**
 * Creation and deletion happen at most once per item, so their ids derive from the item: a retried
 * request or a second concurrent removal names the same event. Other changes get a fresh id, fixed
 * before the change is written.
 */
export function eventIdFor(type: EventType, itemId: string): string {
  if (type === 'feedback.created') return `evt_${itemId}_created`;
  if (type === 'feedback.deleted') return `evt_${itemId}_deleted`;
  return `evt_${new Types.ObjectId().toHexString()}`;
}

export function newEvent(type: EventType, item: FeedbackItem, previous?: Partial<PublicItem>, occurredAt = new Date()): WebhookEvent {
  const { orgId, ...publicItem } = item;
  return { id: eventIdFor(type, item.id), type, orgId, itemId: item.id, occurredAt, data: previous ? { item: publicItem, previous } : { item: publicItem } };
}

/** The request body: `{id, type, timestamp, data}` as Standard Webhooks recommends. */
export function payloadOf(event: WebhookEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data });
}
