import type { InsightsStore, PeriodFigures } from '../data/insightsStore';
import { parseInsightsArgs } from './insightsQuery';

export interface FeedbackInsights extends PeriodFigures {
  interval: string;
  previous: PeriodFigures;
  topTerms: Array<{ term: string; count: number }>;
}

/** The range's figures, the same for the equally long period just before it, and the negative feedback's terms. */
export async function feedbackInsights(
  store: InsightsStore,
  orgId: string,
  args: { from: Date; to: Date; source?: string | null; interval?: string | null },
): Promise<FeedbackInsights> {
  const query = parseInsightsArgs(args);
  const length = query.to.getTime() - query.from.getTime();
  const [current, previous, topTerms] = await Promise.all([
    store.period(orgId, query),
    store.period(orgId, query, new Date(query.from.getTime() - length), query.from),
    store.topTerms(orgId, query),
  ]);
  return { ...current, interval: query.interval, previous, topTerms };
}
