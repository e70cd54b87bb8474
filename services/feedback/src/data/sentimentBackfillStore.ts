import type { Connection, Model, Types } from 'mongoose';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';

/** An item that has no sentiment yet: what the rule needs to compute one. */
export interface SentimentlessItem {
  _id: Types.ObjectId;
  title: string;
  content: string;
}

export interface ComputedSentiment {
  _id: Types.ObjectId;
  /** Null when the text's language is not read: the item is marked so and not read again. */
  sentiment: string | null;
  sentimentScore: number | null;
  language: string | null;
}

/** Items without a sentiment that a backfill can still give one (not those whose language is not read). */
const WITHOUT = { sentiment: null, sentimentSource: { $ne: 'unsupported-language' } };

/**
 * Reads and writes of the sentiment backfill. "No sentiment" is `sentiment: null`, which matches a
 * missing field and an explicit null alike. Each write is conditional on the item still having none,
 * so a sentiment provided meanwhile (by any writer) is never overwritten. Every read and write is one
 * short operation under the connection's time limit, however large the organization.
 */
export class SentimentBackfillStore {
  private readonly model: Model<FeedbackDocument>;

  constructor(connection: Connection) {
    this.model = feedbackModel(connection);
  }

  countWithout(orgId: string): Promise<number> {
    return this.model.collection.countDocuments({ orgId, ...WITHOUT });
  }

  /** The next `limit` items of the organization without a sentiment after `after`, in `_id` order. */
  nextWithout(orgId: string, after: Types.ObjectId | null, limit: number): Promise<SentimentlessItem[]> {
    const filter = { orgId, ...WITHOUT, ...(after ? { _id: { $gt: after } } : {}) };
    return this.model.collection
      .find(filter, { projection: { title: 1, content: 1 }, sort: { _id: 1 }, limit })
      .toArray() as Promise<SentimentlessItem[]>;
  }

  /** Writes computed sentiments to the items that still have none; returns how many were written. */
  async writeComputed(items: ComputedSentiment[]): Promise<number> {
    if (items.length === 0) return 0;
    const result = await this.model.bulkWrite(
      items.map(({ _id, sentiment, sentimentScore, language }) => ({
        updateOne: {
          filter: { _id, sentiment: null },
          update: {
            $set: sentiment === null ? { sentimentSource: 'unsupported-language', language } : { sentiment, sentimentScore: sentimentScore ?? undefined, sentimentSource: 'computed', language },
          },
        },
      })),
      { ordered: false },
    );
    return result.modifiedCount;
  }
}
