import type { Connection, Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { feedbackModel, type FeedbackDocument } from '../data/feedbackModel';
import { bucketIndexer, bucketStarts, type InsightsQuery } from './insightsQuery';
import { TermCounter } from './topTerms';

/** Negative items whose text feeds topTerms: the newest this many in the range. */
export const TOP_TERMS_SAMPLE = 2_000;
const TOP_TERMS = 10;

export interface Point {
  start: Date;
  count: number;
  negative: number;
  positive: number;
  negativeShare: number;
}

export interface PeriodFigures {
  from: Date;
  to: Date;
  total: number;
  bySentiment: { positive: number; neutral: number; negative: number; none: number };
  byStatus: { unread: number; read: number; archived: number };
  bySource: Array<{ source: string; count: number }>;
  series: Point[];
}

interface GroupRow {
  _id: { sentiment: string | null; status: string; source: string };
  count: number;
}

/**
 * Figures of one organization's feedback over a range. Counts are grouped in the database (`$match` +
 * `$group` with `$sum`, which FerretDB v1 supports too), so 100,000 items come back as a few dozen
 * rows. The time series needs each item's bucket; date arithmetic in `$group` is beyond FerretDB v1,
 * so the service streams only `publishedDate` and `sentiment` of the matching items through a cursor
 * and adds them to fixed counters: memory holds the counters, never the items.
 */
export class InsightsStore {
  private readonly model: Model<FeedbackDocument>;

  constructor(connection: Connection) {
    this.model = feedbackModel(connection);
  }

  private match(orgId: string, query: InsightsQuery, from: Date, to: Date) {
    return { orgId, publishedDate: { $gte: from, $lt: to }, ...(query.source !== undefined ? { source: query.source } : {}) };
  }

  async period(orgId: string, query: InsightsQuery, from = query.from, to = query.to): Promise<PeriodFigures> {
    const match = this.match(orgId, query, from, to);
    const shifted = { ...query, from, to };
    const [rows, series] = await Promise.all([
      this.model
        .aggregate<GroupRow>([
          { $match: match },
          { $group: { _id: { sentiment: '$sentiment', status: '$status', source: '$source' }, count: { $sum: 1 } } },
        ])
        .option({ maxTimeMS: DEFAULT_MAX_TIME_MS })
        .exec(),
      this.series(match, shifted),
    ]);
    const figures: PeriodFigures = {
      from,
      to,
      total: 0,
      bySentiment: { positive: 0, neutral: 0, negative: 0, none: 0 },
      byStatus: { unread: 0, read: 0, archived: 0 },
      bySource: [],
      series,
    };
    const sources = new Map<string, number>();
    for (const { _id, count } of rows) {
      figures.total += count;
      const sentiment = (_id.sentiment ?? 'none') as keyof PeriodFigures['bySentiment'];
      if (sentiment in figures.bySentiment) figures.bySentiment[sentiment] += count;
      const status = _id.status as keyof PeriodFigures['byStatus'];
      if (status in figures.byStatus) figures.byStatus[status] += count;
      sources.set(_id.source, (sources.get(_id.source) ?? 0) + count);
    }
    figures.bySource = [...sources].map(([source, count]) => ({ source, count })).sort((a, b) => b.count - a.count || a.source.localeCompare(b.source));
    return figures;
  }

  private async series(match: object, query: InsightsQuery): Promise<Point[]> {
    const starts = bucketStarts(query);
    const indexOf = bucketIndexer(starts);
    const points = starts.map((start) => ({ start, count: 0, negative: 0, positive: 0, negativeShare: 0 }));
    const cursor = this.model.find(match, { _id: 0, publishedDate: 1, sentiment: 1 }).lean<Pick<FeedbackDocument, 'publishedDate' | 'sentiment'>>().maxTimeMS(DEFAULT_MAX_TIME_MS).batchSize(5_000).cursor();
    for await (const item of cursor) {
      const point = points[indexOf(item.publishedDate)];
      if (!point) continue;
      point.count += 1;
      if (item.sentiment === 'negative') point.negative += 1;
      if (item.sentiment === 'positive') point.positive += 1;
    }
    for (const point of points) point.negativeShare = point.count === 0 ? 0 : Math.round((point.negative / point.count) * 10_000) / 10_000;
    return points;
  }

  /** Terms of the newest negative items in the range (at most TOP_TERMS_SAMPLE texts, streamed). */
  async topTerms(orgId: string, query: InsightsQuery): Promise<Array<{ term: string; count: number }>> {
    const counter = new TermCounter();
    const cursor = this.model
      .find({ ...this.match(orgId, query, query.from, query.to), sentiment: 'negative' }, { _id: 0, title: 1, content: 1 })
      .sort({ publishedDate: -1 })
      .limit(TOP_TERMS_SAMPLE)
      .lean<Pick<FeedbackDocument, 'title' | 'content'>>()
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .batchSize(500)
      .cursor();
    for await (const item of cursor) counter.add(`${item.title}. ${item.content}`);
    return counter.top(TOP_TERMS);
  }
}
