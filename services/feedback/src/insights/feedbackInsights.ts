import { DAY_MS } from '../core';
import type { FeedbackInsightsResolvers } from '../generated/resolvers';
import type { ThemeView } from '../themes';
import type { InsightsStore } from './data/insightsStore';
import { parseInsightsArgs } from './insightsQuery';
import { periodFigures, topTerms, type PeriodFigures } from './periodFigures';

/** Rising themes listed at most. */
export const RISING_THEMES = 5;

type RisingThemes = Array<{ theme: ThemeView; count: number; previousCount: number }>;

/**
 * The range's own figures, read at once (with the previous period's, for a range of whole days), and the
 * parts a request may not ask for, read only when asked (each at most once per answer): the previous
 * period of a range with a time of day, the negative feedback's terms (the dearest read) and the themes
 * that grew. A page showing volume and sentiment does not wait for the terms.
 */
export interface FeedbackInsights extends PeriodFigures {
  interval: string;
  previous: () => Promise<PeriodFigures>;
  topTerms: () => Promise<Array<{ term: string; count: number }>>;
  risingThemes: () => Promise<RisingThemes>;
}

/** The field resolvers of `FeedbackInsights`, the same in the public and the admin schema. */
export const feedbackInsightsFields = {
  previous: (parent) => parent.previous(),
  topTerms: (parent) => parent.topTerms(),
  risingThemes: (parent) => parent.risingThemes(),
} satisfies FeedbackInsightsResolvers;

/** The range's figures, the same for the equally long period just before it, the negative feedback's terms, and the themes that grew. */
export async function feedbackInsights(
  {
    store,
    themes,
  }: {
    store: InsightsStore;
    /** The themes with items in a range, with their previous period's counts (see themes/). */
    themes: (
      orgId: string,
      range: { from: Date; to: Date; source?: string },
    ) => Promise<Array<ThemeView & { figures: { count: number; previousCount: number } }>>;
  },
  orgId: string,
  args: { from: Date; to: Date; source?: string | null; interval?: string | null },
): Promise<FeedbackInsights> {
  const query = parseInsightsArgs(args);
  const length = query.to.getTime() - query.from.getTime();
  const previousPeriod = { from: new Date(query.from.getTime() - length), to: query.from };
  // A range of whole days reads its previous period's cells with its own (one read); one with a time of
  // day counts the items of its partial days, so its previous period's are read only when asked.
  const whole = query.from.getTime() % DAY_MS === 0 && query.to.getTime() % DAY_MS === 0;
  const [current, previous] = await periodFigures(store, orgId, query, whole ? [query, previousPeriod] : [query]);
  return {
    ...current,
    interval: query.interval,
    previous: once(async () => previous ?? (await periodFigures(store, orgId, query, [previousPeriod]))[0]),
    topTerms: once(() => topTerms(store, orgId, query)),
    risingThemes: once(async () => {
      const themed = await themes(orgId, { from: query.from, to: query.to, source: query.source });
      return themed
        .map((theme) => ({ theme, count: theme.figures.count, previousCount: theme.figures.previousCount }))
        .filter(({ count, previousCount }) => count > previousCount)
        .sort(
          (a, b) =>
            b.count - b.previousCount - (a.count - a.previousCount) || a.theme.label.localeCompare(b.theme.label),
        )
        .slice(0, RISING_THEMES);
    }),
  };
}

/** `read` run on the first call only; aliases of one field share its answer. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | undefined;
  return () => (answer ??= read());
}
