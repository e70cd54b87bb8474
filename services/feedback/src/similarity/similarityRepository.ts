import { type Types, type Connection, type Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { feedbackModel, type FeedbackDocument } from '../data/feedbackModel';
import type { IndexedItem } from './similarityIndex';

/** What the similarity index reads: id and text of an organization's items, page by page in `_id` order. */
export class SimilarityRepository {
  private readonly model: Model<FeedbackDocument>;

  constructor(connection: Connection) {
    this.model = feedbackModel(connection);
  }

  /** The next `limit` items of the organization after `after` (in `_id` order), from `since` on when given. */
  async page(orgId: string, after: Types.ObjectId | null, limit: number): Promise<Array<IndexedItem & { _id: Types.ObjectId }>> {
    const docs = await this.model.collection
      .find({ orgId, ...(after ? { _id: { $gt: after } } : {}) }, { projection: { title: 1, content: 1 }, sort: { _id: 1 }, limit, maxTimeMS: DEFAULT_MAX_TIME_MS })
      .toArray();
    return docs.map((doc) => ({ _id: doc._id as Types.ObjectId, id: doc._id.toHexString(), title: doc.title as string, content: doc.content as string }));
  }
}
