import { Tombstones, type Connection, type TombstoneDocument } from '@fi/shared/database';
import type { FeedbackItem, MergedItem } from '../model/feedbackItem';

/** The collection of feedback tombstones (the search index also reads merged items there). */
export const FEEDBACK_TOMBSTONES = 'feedback_tombstones';

const mergedItemOf = ({
  _id,
  removedAt: _removedAt,
  kind: _kind,
  mergedInto,
  ...fields
}: TombstoneDocument): MergedItem => ({
  ...(fields as Omit<FeedbackItem, 'id'>),
  id: _id.toHexString(),
  duplicateOf: mergedInto as string,
});

/**
 * Feedback items as they were just before they left the live items (see Tombstones): removed (with the
 * `feedback.deleted` event) or merged into another item (`feedback.merged`), under the item's own field
 * names so the list's filters select them.
 */
export class FeedbackTombstones extends Tombstones {
  constructor(connection: Connection) {
    super(connection, FEEDBACK_TOMBSTONES);
  }

  async findMerged(orgId: string, id: string): Promise<MergedItem | null> {
    const doc = await this.findMergedDocument(orgId, id);
    return doc ? mergedItemOf(doc) : null;
  }

  async mergedInto(orgId: string, intoIds: string[], limit: number): Promise<MergedItem[]> {
    return (await this.mergedDocuments(orgId, intoIds, limit)).map(mergedItemOf);
  }
}
