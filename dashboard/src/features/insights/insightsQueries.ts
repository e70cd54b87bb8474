// The documents are in insights.graphql; `npm run codegen` types them against the admin API.
import type { InsightDetailsQuery, InsightsQuery } from '../../generated/graphql';

export {
  InsightDetailsDocument as INSIGHT_DETAILS,
  InsightsDocument as INSIGHTS,
  MergeThemesDocument as MERGE_THEMES,
  UnmergeThemesDocument as UNMERGE_THEMES,
} from '../../generated/graphql';

export type Insights = InsightsQuery['feedbackInsights'];
export type InsightPoint = Insights['series'][number];
export type InsightDetails = InsightDetailsQuery;
export type ThemeFigures = InsightDetailsQuery['feedbackThemes']['items'][number];

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
