import { listThemes, MAX_THEMES_TAKE, type ThemeView } from '../themes/feedbackThemes';
import type { ThemeStore } from '../data/themeStore';
import type { InsightsStore, PeriodFigures } from '../data/insightsStore';
import { parseInsightsArgs } from './insightsQuery';

/** Rising themes listed at most. */
export const RISING_THEMES = 5;

export interface FeedbackInsights extends PeriodFigures {
  interval: string;
  previous: PeriodFigures;
  topTerms: Array<{ term: string; count: number }>;
  risingThemes: Array<{ theme: ThemeView; count: number; previousCount: number }>;
}

/** The range's figures, the same for the equally long period just before it, the negative feedback's terms, and the themes that grew. */
export async function feedbackInsights(
  { store, themes }: { store: InsightsStore; themes: ThemeStore },
  orgId: string,
  args: { from: Date; to: Date; source?: string | null; interval?: string | null },
): Promise<FeedbackInsights> {
  const query = parseInsightsArgs(args);
  const length = query.to.getTime() - query.from.getTime();
  const [current, previous, topTerms, themed] = await Promise.all([
    store.period(orgId, query),
    store.period(orgId, query, new Date(query.from.getTime() - length), query.from),
    store.topTerms(orgId, query),
    listThemes(themes, orgId, { from: query.from, to: query.to, source: query.source, take: MAX_THEMES_TAKE }),
  ]);
  const risingThemes = themed.items
    .map((theme) => ({ theme, count: theme.figures!.count, previousCount: theme.figures!.previousCount }))
    .filter(({ count, previousCount }) => count > previousCount)
    .sort((a, b) => b.count - b.previousCount - (a.count - a.previousCount) || a.theme.label.localeCompare(b.theme.label))
    .slice(0, RISING_THEMES);
  return { ...current, interval: query.interval, previous, topTerms, risingThemes };
}
