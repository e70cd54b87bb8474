import type { WebhookEvent } from '../webhooks/events';

/**
 * How the domain announces a change (implemented by the webhook outbox): the event is recorded before
 * the write, named in the write, and published after it.
 */
export interface ChangeEvents {
  /**
   * Durably records the event, unless no endpoint of the organization wants it; must complete before
   * the change is written. True when recorded (the change must then name the event).
   */
  record(event: WebhookEvent): Promise<boolean>;
  /** Events whose changes are about to lose their document (a removal): their proof is kept. */
  markApplied(eventIds: string[]): Promise<void>;
  /** The change is written: deliver soon. Never waits, never fails the request. */
  written(): void;
}

/**
 * The one way the domain writes a change: records `event`, runs `write` (given the event's id to store
 * in the same single-document write when it was recorded), and wakes the dispatcher once the write
 * happened. `write` answers null when it wrote nothing (e.g. the item changed meanwhile).
 */
export async function writeWithEvent<T>(events: ChangeEvents, event: WebhookEvent, write: (eventId: string | undefined) => Promise<T | null>): Promise<T | null> {
  const recorded = await events.record(event);
  const result = await write(recorded ? event.id : undefined);
  if (result !== null && recorded) events.written();
  return result;
}
