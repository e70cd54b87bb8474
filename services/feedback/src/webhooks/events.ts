import { newObjectIdHex, type PublicExportJob } from '@fi/shared/database';
import type { FeedbackItem } from '../data/feedbackItem';

export const ITEM_EVENT_TYPES = [
  'feedback.created',
  'feedback.status_changed',
  'feedback.deleted',
  'feedback.merged',
  'feedback.unmerged',
] as const;
/** An export of the organization's (feedback, contacts or accounts) finished. */
export const EXPORT_EVENT_TYPES = ['export.completed', 'export.failed'] as const;
export const EVENT_TYPES = [...ITEM_EVENT_TYPES, ...EXPORT_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type ItemEventType = (typeof ITEM_EVENT_TYPES)[number];
export type ExportEventType = (typeof EXPORT_EVENT_TYPES)[number];
/**
 * Sent to one endpoint on request (the web application's "Send test event"), never to subscribers: it
 * is not among EVENT_TYPES, so no endpoint subscribes to it.
 */
export const TEST_EVENT_TYPE = 'webhook.test';
/** What a delivery carries: a subscribed event or a test event. */
export type DeliveryEventType = EventType | typeof TEST_EVENT_TYPE;

/** One change of a feedback item, as customers receive it (the organization is never in it). */
export interface WebhookEvent {
  /** Also the `webhook-id` header: the same for every delivery attempt and duplicate of this event. */
  id: string;
  type: EventType;
  orgId: string;
  /** The feedback item, or the export job, the event is about. */
  itemId: string;
  occurredAt: Date;
  data: ItemEventData | { export: PublicExportJob };
}

export interface ItemEventData {
  item: PublicItem;
  previous?: Partial<PublicItem>;
  /** feedback.merged: the item the duplicate `item` was merged into. */
  mergedInto?: string;
}

/** What receivers see of an item: everything but the organization. */
export type PublicItem = Omit<FeedbackItem, 'orgId'>;

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
): WebhookEvent {
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
export function mergedEvent(item: FeedbackItem, into: string): WebhookEvent {
  const event = newEvent('feedback.merged', item);
  return { ...event, data: { ...(event.data as ItemEventData), mergedInto: into } };
}

/** An export's end: one event per job and outcome, so a repeated announcement names the same event. */
export function exportEvent(orgId: string, job: PublicExportJob): WebhookEvent {
  const type: ExportEventType = job.status === 'done' ? 'export.completed' : 'export.failed';
  return {
    id: `evt_export_${job.id}_${job.status}`,
    type,
    orgId,
    itemId: job.id,
    occurredAt: job.finishedAt ?? new Date(),
    data: { export: job },
  };
}

/** A test event for one endpoint: a fresh id each time, so each test is a delivery of its own. */
export function testEvent(orgId: string, endpointId: string, occurredAt = new Date()) {
  const id = `evt_test_${newObjectIdHex()}`;
  const payload = JSON.stringify({
    id,
    type: TEST_EVENT_TYPE,
    timestamp: occurredAt.toISOString(),
    data: {
      endpointId,
      message:
        'A test event sent from Feedback Intelligence: if its signature verifies, this endpoint is set up right.',
    },
  });
  return { event: { id, type: TEST_EVENT_TYPE, orgId, occurredAt } as const, payload };
}

/** The request body: `{id, type, timestamp, data}` as Standard Webhooks recommends. */
export function payloadOf(event: WebhookEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: event.data,
  });
}
