import { Types, type Connection, type Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { feedbackModel, type FeedbackDocument } from '../../core/data';

export { idSecondsBefore } from '../../core/data';

/** An item as the similarity index reads it: its id and text. */
export interface ItemText {
  id: string;
  title: string;
  content: string;
}

/** What the similarity index reads: id and text of an organization's items, page by page in `_id` order. */
export class SimilarityStore {
  private readonly model: Model<FeedbackDocument>;

  constructor(connection: Connection) {
    this.model = feedbackModel(connection);
  }

  /** The next `limit` items of the organization after the id `after` (in `_id` order), from the first when null. */
  async page(orgId: string, after: string | null, limit: number): Promise<ItemText[]> {
    const docs = await this.model.collection
      .find(
        { orgId, ...(after ? { _id: { $gt: new Types.ObjectId(after) } } : {}) },
        { projection: { title: 1, content: 1 }, sort: { _id: 1 }, limit, maxTimeMS: DEFAULT_MAX_TIME_MS },
      )
      .toArray();
    return docs.map((doc) => ({
      id: doc._id.toHexString(),
      title: doc.title as string,
      content: doc.content as string,
    }));
  }
}
