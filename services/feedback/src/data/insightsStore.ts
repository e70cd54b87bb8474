import type { Connection, Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { DAY_MS, NO_SENTIMENT, utcDay } from '../domain/countDelta';
import { bucketIndexer, bucketStarts, type InsightsQuery } from '../insights/insightsQuery';
import { TermCounter } from '../insights/topTerms';
import { CountStore } from './countStore';
import { ANY_SENTIMENT, ANY_STATUS } from './feedbackList';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';

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

/** Adds up items (or whole days of them) into a period's figures; memory holds the figures only. */
class PeriodTally {
  private readonly figures: PeriodFigures;
  private readonly sources = new Map<string, number>();
  private readonly indexOf: (date: Date) => number;

  constructor(query: InsightsQuery) {
    const starts = bucketStarts(query);
    this.indexOf = bucketIndexer(starts);
    const points = starts.map((start) => ({ start, count: 0, negative: 0, positive: 0, negativeShare: 0 }));
    this.figures = {
      from: query.from,
      to: query.to,
      total: 0,
      bySentiment: { positive: 0, neutral: 0, negative: 0, none: 0 },
      byStatus: { unread: 0, read: 0, archived: 0 },
      bySource: [],
      series: points,
    };
  }

  add(date: Date, source: string, status: string, sentiment: string, n: number): void {
    const figures = this.figures;
    figures.total += n;
    if (sentiment in figures.bySentiment) figures.bySentiment[sentiment as keyof PeriodFigures['bySentiment']] += n;
    if (status in figures.byStatus) figures.byStatus[status as keyof PeriodFigures['byStatus']] += n;
    this.sources.set(source, (this.sources.get(source) ?? 0) + n);
    const point = figures.series[this.indexOf(date)];
    if (!point) return;
    point.count += n;
    if (sentiment === 'negative') point.negative += n;
    if (sentiment === 'positive') point.positive += n;
  }

  finish(): PeriodFigures {
    const figures = this.figures;
    figures.bySource = [...this.sources]
      .map(([source, count]) => ({ source, count }))
      .sort((a, b) => b.count - a.count || a.source.localeCompare(b.source));
    for (const point of figures.series)
      point.negativeShare = point.count === 0 ? 0 : Math.round((point.negative / point.count) * 10_000) / 10_000;
    return figures;
  }
}

/**
 * Figures of one organization's feedback over a range. A range from UTC midnight to UTC midnight (what
 * a date picker sends) is read from the kept day cells: a 366-day request reads at most 366 small
 * documents per source, whatever the number of items. A range with a time of day is counted from its
 * items (streamed, a cursor's batch in memory at a time). topTerms reads the newest TOP_TERMS_SAMPLE
 * negative items of the range, through an index that serves that order.
 */
export class InsightsStore {
  private readonly model: Model<FeedbackDocument>;
  private readonly counts: CountStore;

  constructor(connection: Connection) {
    this.model = feedbackModel(connection);
    this.counts = new CountStore(connection);
  }

  /** Status and sentiment named with all their values, for the (organization, status, sentiment, date) index (see feedbackFilter). */
  private match(orgId: string, query: InsightsQuery, from: Date, to: Date, sentiment: object | string = ANY_SENTIMENT) {
    return {
      orgId,
      ...(query.source !== undefined ? { source: query.source } : {}),
      status: ANY_STATUS,
      sentiment,
      publishedDate: { $gte: from, $lt: to },
    };
  }

  /**
   * The figures of each period ([from, to) with the query's source and interval). Periods of whole UTC days
   * come from one read of the day cells (a range and its previous period: one read, as the embedded engine
   * reads an organization's day cells whatever the key range); the others are counted from their items.
   */
  async periods(
    orgId: string,
    query: InsightsQuery,
    periods: Array<{ from: Date; to: Date }>,
  ): Promise<PeriodFigures[]> {
    const tallies = periods.map(({ from, to }) => ({
      from,
      to,
      tally: new PeriodTally({ ...query, from, to }),
      whole: from.getTime() % DAY_MS === 0 && to.getTime() % DAY_MS === 0,
    }));
    const whole = tallies.filter((period) => period.whole);
    if (whole.length > 0) {
      const first = utcDay(new Date(Math.min(...whole.map((period) => period.from.getTime()))));
      const last = utcDay(new Date(Math.max(...whole.map((period) => period.to.getTime()))));
      for (const cell of await this.counts.find(orgId, 'day', { from: first, to: last })) {
        if (query.source !== undefined && cell.source !== query.source) continue;
        const day = new Date(`${cell.key}T00:00:00.000Z`);
        for (const { from, to, tally } of whole) {
          if (day < from || day >= to) continue;
          for (const [status, bySentiment] of Object.entries(cell.c ?? {})) {
            for (const [sentiment, n] of Object.entries(bySentiment))
              if (n !== 0) tally.add(day, cell.source ?? '', status, sentiment, n);
          }
        }
      }
    }
    for (const { from, to, tally } of tallies.filter((period) => !period.whole)) {
      const cursor = this.model
        .find(this.match(orgId, query, from, to), { _id: 0, publishedDate: 1, source: 1, status: 1, sentiment: 1 })
        .lean<Pick<FeedbackDocument, 'publishedDate' | 'source' | 'status' | 'sentiment'>>()
        .maxTimeMS(DEFAULT_MAX_TIME_MS)
        .batchSize(5_000)
        .cursor();
      for await (const item of cursor)
        tally.add(item.publishedDate, item.source, item.status, item.sentiment ?? NO_SENTIMENT, 1);
    }
    return tallies.map(({ tally }) => tally.finish());
  }

  /** Terms of the newest negative items in the range (at most TOP_TERMS_SAMPLE texts, streamed). */
  async topTerms(orgId: string, query: InsightsQuery): Promise<Array<{ term: string; count: number }>> {
    const counter = new TermCounter();
    const cursor = this.model
      .find(this.match(orgId, query, query.from, query.to, 'negative'), { _id: 0, title: 1, content: 1 })
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
