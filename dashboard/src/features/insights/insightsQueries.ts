import { gql } from '@urql/core';

export interface InsightPoint {
  start: string;
  count: number;
  positive: number;
  negative: number;
}

export interface Insights {
  total: number;
  interval: string;
  bySentiment: { positive: number; neutral: number; negative: number; none: number };
  bySource: Array<{ source: string; count: number }>;
  series: InsightPoint[];
  previous: { total: number };
  topTerms: Array<{ term: string; count: number }>;
}

export interface ThemeFigures {
  id: string;
  label: string;
  count: number;
  negative: number;
  previousCount: number;
}

/** The range's figures and its themes (with the previous period's count, for their trend), in one request. */
export const INSIGHTS = gql<
  { feedbackInsights: Insights; feedbackThemes: { computedAt: string | null; items: ThemeFigures[] } },
  { from: string; to: string; interval: string; source: string | null }
>`
  query Insights($from: DateTime!, $to: DateTime!, $interval: String!, $source: String) {
    feedbackInsights(from: $from, to: $to, interval: $interval, source: $source) {
      total interval
      bySentiment { positive neutral negative none }
      bySource { source count }
      series { start count positive negative }
      previous { total }
      topTerms { term count }
    }
    feedbackThemes(from: $from, to: $to, source: $source, take: 10) {
      computedAt
      items { id label count negative previousCount }
    }
  }
`;

/** The ranges a person picks from (`?range=`), each with the length of one point of its series. */
export const RANGES = [
  { id: '7d', label: 'Last 7 days', days: 7, interval: 'day' },
  { id: '30d', label: 'Last 30 days', days: 30, interval: 'day' },
  { id: '90d', label: 'Last 90 days', days: 90, interval: 'week' },
  { id: '365d', label: 'Last 12 months', days: 365, interval: 'month' },
] as const;

export type Range = (typeof RANGES)[number];

const DAY_MS = 86_400_000;

/** The range ending at the next midnight (UTC), so a day's requests ask the same and are cached alike. */
export function rangeBounds(range: Range, now = Date.now()): { from: string; to: string } {
  const to = Math.ceil(now / DAY_MS) * DAY_MS;
  return { from: new Date(to - range.days * DAY_MS).toISOString(), to: new Date(to).toISOString() };
}
