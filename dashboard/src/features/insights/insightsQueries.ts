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
}

export interface ThemeFigures {
  id: string;
  label: string;
  count: number;
  negative: number;
  previousCount: number;
}

export interface InsightDetails {
  feedbackInsights: { topTerms: Array<{ term: string; count: number }> };
  feedbackThemes: { computedAt: string | null; items: ThemeFigures[] };
}

type RangeVariables = { from: string; to: string; interval: string; source: string | null };

/** The range's figures, read from kept counts: what the page shows first. */
export const INSIGHTS = gql<{ feedbackInsights: Insights }, RangeVariables>`
  query Insights($from: DateTime!, $to: DateTime!, $interval: String!, $source: String) {
    feedbackInsights(from: $from, to: $to, interval: $interval, source: $source) {
      total
      interval
      bySentiment {
        positive
        neutral
        negative
        none
      }
      bySource {
        source
        count
      }
      series {
        start
        count
        positive
        negative
      }
      previous {
        total
      }
    }
  }
`;

/**
 * The terms of negative feedback (read from the items themselves, the dearest part) and the themes with
 * their trend, asked for beside the figures so the charts never wait for them.
 */
export const INSIGHT_DETAILS = gql<InsightDetails, RangeVariables>`
  query InsightDetails($from: DateTime!, $to: DateTime!, $interval: String!, $source: String) {
    feedbackInsights(from: $from, to: $to, interval: $interval, source: $source) {
      topTerms {
        term
        count
      }
    }
    feedbackThemes(from: $from, to: $to, source: $source, take: 10) {
      computedAt
      items {
        id
        label
        count
        negative
        previousCount
      }
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

/** Merges a theme into another (the feedback service computes the themes again within a minute). */
export const MERGE_THEMES = gql<{ mergeFeedbackThemes: { id: string } }, { id: string; themeIds: string[] }>`
  mutation MergeThemes($id: String!, $themeIds: [String!]!) {
    mergeFeedbackThemes(id: $id, themeIds: $themeIds) {
      id
    }
  }
`;

/** Separates the themes merged into one. */
export const UNMERGE_THEMES = gql<{ unmergeFeedbackThemes: { id: string } }, { id: string }>`
  mutation UnmergeThemes($id: String!) {
    unmergeFeedbackThemes(id: $id) {
      id
    }
  }
`;
