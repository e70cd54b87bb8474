import type { Connection, Model, Types } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { CountStore, type CellDocument, type Sentiment } from '../../core';
import { ANY_SENTIMENT, ANY_STATUS, feedbackModel, type FeedbackDocument } from '../../core/data';

/** The range of a read: [from, to), of one source or all. */
export interface InsightsRange {
  from: Date;
  to: Date;
  source?: string;
}

/** What a figure needs of an item. */
export type CountedFields = Pick<FeedbackDocument, 'publishedDate' | 'source' | 'status' | 'sentiment'>;

/**
 * What the insights read: the kept day cells (a day's items by status x sentiment, per source) and, for
 * what they do not hold, the items themselves, streamed through an index that serves the range.
 */
export class InsightsStore {
  private readonly model: Model<FeedbackDocument>;
  private readonly counts: CountStore;

  constructor(
    connection: Connection,
    /** Items per read of a range (see itemsIn). */
    private readonly pageSize = 2_000,
  ) {
    this.model = feedbackModel(connection);
    this.counts = new CountStore(connection);
  }

  /** Status and sentiment named with all their values, for the (organization, status, sentiment, date) index (see feedbackFilter). */
  private match(orgId: string, range: InsightsRange, sentiment: object | Sentiment = ANY_SENTIMENT) {
    return {
      orgId,
      ...(range.source !== undefined ? { source: range.source } : {}),
      status: ANY_STATUS,
      sentiment,
      publishedDate: { $gte: range.from, $lt: range.to },
    };
  }

  /** The organization's day cells of the UTC days [first, last) (YYYY-MM-DD), every source. */
  dayCells(orgId: string, first: string, last: string): Promise<CellDocument[]> {
    return this.counts.find(orgId, 'day', { from: first, to: last });
  }

  /**
   * The items published in the range (what each figure needs of them), newest first, `pageSize` at a time,
   * each page after the last one's (publishedDate, _id). Sorted and limited, a page is one range of the
   * (organization, status, sentiment, publishedDate) index on every engine; the embedded engine read the
   * same filter unsorted as every item of the organization (a partial day of a year's insights: 0.1-0.8 s
   * at 10,000 items on a busy machine, against 3-40 ms as pages).
   */
  async *itemsIn(orgId: string, range: InsightsRange): AsyncIterable<CountedFields> {
    const filter = this.match(orgId, range);
    let after: { publishedDate: Date; _id: Types.ObjectId } | null = null;
    for (;;) {
      const page: Array<CountedFields & { _id: Types.ObjectId }> = await this.model
        .find(
          after
            ? {
                $and: [
                  filter,
                  {
                    $or: [
                      { publishedDate: { $lt: after.publishedDate } },
                      { publishedDate: after.publishedDate, _id: { $lt: after._id } },
                    ],
                  },
                ],
              }
            : filter,
          { publishedDate: 1, source: 1, status: 1, sentiment: 1 },
        )
        .sort({ publishedDate: -1, _id: -1 })
        .limit(this.pageSize)
        .lean<Array<CountedFields & { _id: Types.ObjectId }>>()
        .maxTimeMS(DEFAULT_MAX_TIME_MS);
      yield* page;
      if (page.length < this.pageSize) return;
      after = page[page.length - 1];
    }
  }

  /** The texts of the newest `limit` negative items of the range, streamed, through an index that serves that order. */
  async *negativeTexts(orgId: string, range: InsightsRange, limit: number): AsyncIterable<string> {
    const cursor = this.model
      .find(this.match(orgId, range, 'negative'), { _id: 0, title: 1, content: 1 })
      .sort({ publishedDate: -1 })
      .limit(limit)
      .lean<Pick<FeedbackDocument, 'title' | 'content'>>()
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .batchSize(500)
      .cursor();
    for await (const item of cursor) yield `${item.title}. ${item.content}`;
  }
}
