import type { Connection, Model, Types } from 'mongoose';
import { updatedStamp } from '@fi/shared';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';

/** An item that has no sentiment yet: what the rule needs to compute one. */
export interface SentimentlessItem {
  _id: Types.ObjectId;
  title: string;
  content: string;
}

export interface ComputedSentiment {
  _id: Types.ObjectId;
  /** Null when the text's language is not read, or gave no clear verdict: the item is marked so and not read again. */
  sentiment: string | null;
  sentimentScore: number | null;
  language: string | null;
  /** Why there is no sentiment, when there is none. */
  withoutSentiment?: 'unsupported-language' | 'uncertain';
}

/** Items without a sentiment that a backfill can still give one (not those it already read without a verdict). */
const WITHOUT = { sentiment: null, sentimentSource: { $nin: ['unsupported-language', 'uncertain'] } };

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
      items.map(({ _id, sentiment, sentimentScore, language, withoutSentiment }) => ({
        updateOne: {
          filter: { _id, sentiment: null },
          update: {
            // A computed sentiment is a change of the item's exported fields: the changes feed lists it.
            $set:
              sentiment === null
                ? { sentimentSource: withoutSentiment ?? 'unsupported-language', language }
                : {
                    sentiment,
                    sentimentScore: sentimentScore ?? undefined,
                    sentimentSource: 'computed',
                    language,
                    ...updatedStamp(),
                  },
          },
        },
      })),
      { ordered: false },
    );
    return result.modifiedCount;
  }
}
