import type { Connection } from 'mongoose';
import { objectIdOrNull } from '@fi/shared/database';
import { countedOf, sumOf, type CountDelta } from '../../core';
import { feedbackModel, idChunks, toItem, type FeedbackDocument } from '../../core/data';

/** What the relay reads of the items to tell whether a recorded change happened. */
export class ChangeEvidenceStore {
  private readonly items;

  constructor(connection: Connection) {
    this.items = feedbackModel(connection).collection;
  }

  /** The ids of the changes the item's last writes named; null when there is no such item. */
  async changeEvidence(itemId: string): Promise<{ changeIds?: string[] } | null> {
    const _id = objectIdOrNull(itemId);
    if (!_id) return null;
    const doc = await this.items.findOne<Pick<FeedbackDocument, 'webhookEventIds'>>(
      { _id },
      { projection: { _id: 0, webhookEventIds: 1 } },
    );
    return doc && { changeIds: doc.webhookEventIds };
  }

  /**
   * The delta of the items among `itemIds` that exist (an import batch that died midway), read by `_id` in
   * chunks (a seed's batch holds 50,000).
   */
  async deltaOfExisting(orgId: string, itemIds: string[]): Promise<CountDelta> {
    const docs: FeedbackDocument[] = [];
    for (const ids of idChunks(itemIds.flatMap((id) => objectIdOrNull(id) ?? [])))
      docs.push(...(await this.items.find<FeedbackDocument>({ _id: { $in: ids } }).toArray()));
    return sumOf(docs.filter((doc) => doc.orgId === orgId).map((doc) => [null, countedOf(toItem(doc))]));
  }
}
