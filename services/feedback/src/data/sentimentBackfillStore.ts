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
  sentiment: string;
  sentimentScore: number;
}

/** Longest a backfill read may run on the server; a scan of a large organization on a slow server fits. */
const READ_TIME_LIMIT_MS = 10 * 60_000;

/**
 * Reads and writes of the sentiment backfill. "No sentiment" is `sentiment: null`, which matches a
 * missing field and an explicit null alike. Each write is conditional on the item still having none,
 * so a sentiment provided meanwhile (by any writer) is never overwritten.
 */
export class SentimentBackfillStore {
  private readonly model: Model<FeedbackDocument>;

  constructor(connection: Connection) {
    this.model = feedbackModel(connection);
  }

  countWithout(orgId: string): Promise<number> {
    return this.model.countDocuments({ orgId, sentiment: null }).maxTimeMS(READ_TIME_LIMIT_MS);
  }

  /**
   * The organization's items without a sentiment, in one cursor (one scan), `batchSize` at a time.
   * Items written by the backfill leave the query, so a new run continues where a stopped one ended.
   */
  async *batchesWithout(orgId: string, batchSize: number): AsyncGenerator<SentimentlessItem[]> {
    const cursor = this.model
      .find({ orgId, sentiment: null }, { title: 1, content: 1 })
      .lean<SentimentlessItem>()
      .batchSize(batchSize)
      .maxTimeMS(READ_TIME_LIMIT_MS)
      .cursor();
    let batch: SentimentlessItem[] = [];
    try {
      for await (const item of cursor) {
        batch.push(item);
        if (batch.length === batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      await cursor.close();
    }
  }

  /** Writes computed sentiments to the items that still have none; returns how many were written. */
  async writeComputed(items: ComputedSentiment[]): Promise<number> {
    if (items.length === 0) return 0;
    const result = await this.model.bulkWrite(
      items.map(({ _id, sentiment, sentimentScore }) => ({
        updateOne: {
          filter: { _id, sentiment: null },
          update: { $set: { sentiment, sentimentScore, sentimentSource: 'computed' } },
        },
      })),
      { ordered: false },
    );
    return result.modifiedCount;
  }
}
