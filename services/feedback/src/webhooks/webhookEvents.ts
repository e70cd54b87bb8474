import { newObjectIdHex } from '@fi/shared/database';
import { ITEM_EVENT_TYPES, type ServiceEvent } from '../core';
import { ALERT_EVENT_TYPES } from '../alerts';
import { EXPORT_EVENT_TYPES } from '../export';

/** The events an endpoint may subscribe to: items' changes, exports' ends, alerts opened and closed. */
export const EVENT_TYPES = [...ITEM_EVENT_TYPES, ...EXPORT_EVENT_TYPES, ...ALERT_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (type: string): type is EventType => (EVENT_TYPES as readonly string[]).includes(type);

/**
 * Sent to one endpoint on request (the web application's "Send test event"), never to subscribers: it
 * is not among EVENT_TYPES, so no endpoint subscribes to it.
 */
export const TEST_EVENT_TYPE = 'webhook.test';

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
export function payloadOf(event: ServiceEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: event.data,
  });
}
