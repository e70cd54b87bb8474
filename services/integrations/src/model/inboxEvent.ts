import type { Kind } from './connection';

/** pending: waiting for the worker; done: its item exists; ignored: nothing to make of it; failed: refused or given up. */
export const OUTCOMES = ['pending', 'done', 'ignored', 'failed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** An event as the receiver (or the mail listener, or a pull) hands it to the inbox. */
export interface ReceivedEvent {
  /**
   * The platform's own id of the delivery or the record (Standard Webhooks' webhook-id, Slack's event_id,
   * a ticket id...): a redelivery has the same one and is stored once.
   */
  deliveryKey: string;
  /** The platform's event type, e.g. `conversation.user.created`; what the connector reads it by. */
  type: string;
  /** The event's JSON, parsed from the raw body that was verified. */
  payload: unknown;
}

/** A received event as stored, until the worker has made its item (or recorded why not). */
export interface InboxEvent extends ReceivedEvent {
  id: string;
  connectionId: string;
  orgId: string;
  kind: Kind;
  outcome: Outcome;
  attempts: number;
  /** The item made of it (outcome done). */
  itemId: string | null;
  /** Why it was ignored or failed, for the connection's recent events. */
  detail: string | null;
  receivedAt: Date;
  finishedAt: Date | null;
}
