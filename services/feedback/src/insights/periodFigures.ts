import { DAY_MS, NO_SENTIMENT, STATUSES, utcDay, type FeedbackStatus } from '../core';
import { TermCounter } from '../terms';
import type { InsightsStore } from './data/insightsStore';
import { bucketIndexer, bucketStarts, type InsightsQuery } from './insightsQuery';

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
  byStatus: Record<FeedbackStatus, number>;
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
      byStatus: Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<FeedbackStatus, number>,
      bySource: [],
      series: points,
    };
  }

  add(date: Date, source: string, status: string, sentiment: string, n: number): void {
    const figures = this.figures;
    figures.total += n;
    if (sentiment in figures.bySentiment) figures.bySentiment[sentiment as keyof PeriodFigures['bySentiment']] += n;
    if (status in figures.byStatus) figures.byStatus[status as FeedbackStatus] += n;
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

/** The whole UTC days of [from, to), as [first, last) times (empty when first >= last). */
function wholeDays({ from, to }: { from: Date; to: Date }): { first: number; last: number } {
  return { first: Math.ceil(from.getTime() / DAY_MS) * DAY_MS, last: Math.floor(to.getTime() / DAY_MS) * DAY_MS };
}

/** The parts of [from, to) outside its whole days: its partial first and last day (or the range, within one day). */
function partialDays(period: { from: Date; to: Date }): Array<{ from: Date; to: Date }> {
  const { first, last } = wholeDays(period);
  if (first >= last) return [period];
  return [
    { from: period.from, to: new Date(first) },
    { from: new Date(last), to: period.to },
  ].filter((part) => part.from.getTime() < part.to.getTime());
}

/**
 * The figures of each period ([from, to) with the query's source and interval). Its whole UTC days are
 * read from the kept day cells: a 366-day request reads at most 366 small documents per source, whatever
 * the number of items, and the periods' days come from one read of them (a range and its previous period:
 * one read, as the embedded engine reads an organization's day cells whatever the key range). A range with
 * a time of day adds its partial first and last day counted from their items (at most two days of items).
 * A day cell counts in the series point that holds the day's noon: exact when the points start at
 * midnight (a range from midnight, as a date picker sends), else each point is off by at most the items
 * of the day its start falls in.
 */
export async function periodFigures(
  store: InsightsStore,
  orgId: string,
  query: InsightsQuery,
  periods: Array<{ from: Date; to: Date }>,
): Promise<PeriodFigures[]> {
  const tallies = periods.map((period) => ({
    ...period,
    days: wholeDays(period),
    tally: new PeriodTally({ ...query, ...period }),
  }));
  const withDays = tallies.filter(({ days }) => days.first < days.last);
  if (withDays.length > 0) {
    const first = utcDay(new Date(Math.min(...withDays.map(({ days }) => days.first))));
    const last = utcDay(new Date(Math.max(...withDays.map(({ days }) => days.last))));
    for (const cell of await store.dayCells(orgId, first, last)) {
      if (query.source !== undefined && cell.source !== query.source) continue;
      const day = Date.parse(`${cell.key}T00:00:00.000Z`);
      const noon = new Date(day + DAY_MS / 2);
      for (const { days, tally } of withDays) {
        if (day < days.first || day >= days.last) continue;
        for (const [status, bySentiment] of Object.entries(cell.c ?? {})) {
          for (const [sentiment, n] of Object.entries(bySentiment))
            if (n !== 0) tally.add(noon, cell.source ?? '', status, sentiment, n);
        }
      }
    }
  }
  for (const period of tallies) {
    for (const part of partialDays(period)) {
      for await (const item of store.itemsIn(orgId, { ...part, source: query.source }))
        period.tally.add(item.publishedDate, item.source, item.status, item.sentiment ?? NO_SENTIMENT, 1);
    }
  }
  return tallies.map(({ tally }) => tally.finish());
}

/** Terms of the newest negative items in the range (at most TOP_TERMS_SAMPLE texts, streamed). */
export async function topTerms(
  store: InsightsStore,
  orgId: string,
  query: InsightsQuery,
): Promise<Array<{ term: string; count: number }>> {
  const counter = new TermCounter();
  for await (const text of store.negativeTexts(orgId, query, TOP_TERMS_SAMPLE)) counter.add(text);
  return counter.top(TOP_TERMS);
}
