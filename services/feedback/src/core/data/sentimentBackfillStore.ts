import type { Connection, Model, Types } from 'mongoose';
import { updatedStamp } from '@fi/shared';
import { runKeysetBackfill, type BackfillOptions, type BackfillResult } from '@fi/shared/database';
import type { SentimentReading } from '../model/feedbackItem';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';

/** An item that has no sentiment yet: what the rule needs to compute one. */
export interface SentimentlessItem {
  _id: Types.ObjectId;
  title: string;
  content: string;
}

export type ComputedSentiment = SentimentReading & { _id: Types.ObjectId };

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

  /**
   * Gives the organization's items without a sentiment the one `read` finds in their text, page by page
   * (see `runKeysetBackfill` for how it reads and resumes).
   */
  backfill(
    orgId: string,
    read: (title: string, content: string) => SentimentReading,
    options: BackfillOptions,
  ): Promise<BackfillResult> {
    return runKeysetBackfill(
      {
        count: () => this.countWithout(orgId),
        next: (after, limit) => this.nextWithout(orgId, after, limit),
        write: (page) => this.writeComputed(page.map(({ _id, title, content }) => ({ _id, ...read(title, content) }))),
      },
      options,
    );
  }
}
