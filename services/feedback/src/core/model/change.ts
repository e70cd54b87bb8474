import type { CountDelta } from './countDelta';
import type { ItemEvent, ItemEventData, ItemEventType, ServiceEvent } from './events';

/**
 * What may change items: the item event types, an import batch, a model's reading of an item's sentiment
 * and a person's sentiment for it (the last three never sent to webhooks).
 */
export type ChangeType = ItemEventType | 'feedback.imported' | 'feedback.sentiment_read' | 'feedback.sentiment_set';

/** A change as recorded before it is written (the change stream's intent). */
export interface Change {
  /** The event id for an event type. */
  id: string;
  type: ChangeType;
  orgId: string;
  /** The item changed; for an import batch its last item (written last, so its presence proves the batch). */
  itemId: string;
  occurredAt: Date;
  /** The event's body; none for an import batch. */
  data?: ItemEventData;
  /** What the change does to the kept counts. */
  delta: CountDelta;
  /** Every item of an import batch, to count what a batch that died midway did write. */
  itemIds?: string[];
  /**
   * Until when the change is left to its writer, whatever the relay's grace period: an import batch takes
   * longer to write and count than one item. The relay does not read it before (an import batch's intent
   * holds megabytes of ids and cells), so it suits only changes no listener receives.
   */
  heldUntil?: Date;
}

/**
 * An event a feature announces through the change stream once what it tells has happened (an export's
 * end): it changes no item and no count.
 */
export type Announcement = ServiceEvent;

/** A change of one item from its event and its delta. */
export const changeOf = (event: ItemEvent, delta: CountDelta): Change => ({ ...event, delta });
