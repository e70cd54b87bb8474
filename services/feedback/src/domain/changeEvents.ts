import type { EventType, WebhookEvent } from '../webhooks/events';
import type { CountDelta } from './countDelta';

/** What may change items: the webhook event types, and an import batch (never sent to webhooks). */
export type ChangeType = EventType | 'feedback.imported';

/** A change as recorded before it is written (the outbox's intent). */
export interface Change {
  /** The webhook event id for an event type. */
  id: string;
  type: ChangeType;
  orgId: string;
  /** The item changed; for an import batch its last item (written last, so its presence proves the batch). */
  itemId: string;
  occurredAt: Date;
  /** The webhook event's body; none for an import batch. */
  data?: WebhookEvent['data'];
  /** What the change does to the kept counts. */
  delta: CountDelta;
  /** Every item of an import batch, to count what a batch that died midway did write. */
  itemIds?: string[];
  /**
   * Until when the change is left to its writer, whatever the relay's grace period: an import batch takes
   * longer to write and count than one item. The relay does not read it before (an import batch's intent
   * holds megabytes of ids and cells), so it suits only changes no endpoint receives.
   */
  heldUntil?: Date;
}

/**
 * How the domain announces a change (implemented by the outbox, see webhooks/webhooks.ts): recorded
 * before the write, named in the write, counted and published after it.
 */
export interface ChangeEvents {
  /** Durably records the change; must complete before the change is written. */
  record(change: Change): Promise<void>;
  /** Changes whose proof is about to go with their document (a removal): they are kept as applied. */
  markApplied(changeIds: string[]): Promise<void>;
  /**
   * The change is written: applies its counts (visible when this resolves) and wakes the dispatcher.
   * Never fails the request: a count that could not be applied is applied by the outbox relay.
   */
  written(change: Change): Promise<void>;
}

/** A change of one item from its webhook event and its delta. */
export const changeOf = (event: WebhookEvent, delta: CountDelta): Change => ({ ...event, delta });

/**
 * The one way the domain writes a change: records it, runs `write` (given the change id to store in
 * the same single-document write), then counts and publishes it once the write happened. `write`
 * answers null when it wrote nothing (the item changed meanwhile, or a replay found it written):
 * nothing is counted then, and the recorded change is dropped or counted by the relay on its proof.
 */
export async function writeWithEvent<T>(
  events: ChangeEvents,
  change: Change,
  write: (changeId: string) => Promise<T | null>,
): Promise<T | null> {
  await events.record(change);
  const result = await write(change.id);
  if (result !== null) await events.written(change);
  return result;
}
