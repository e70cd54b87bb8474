import { Tombstones, type Connection } from '@fi/shared';

/**
 * Feedback items as they were just before their removal (see Tombstones), written with the
 * `feedback.deleted` event, under the item's own field names so the list's filters select them.
 */
export class FeedbackTombstones extends Tombstones {
  constructor(connection: Connection) {
    super(connection, 'feedback_tombstones');
  }
}
