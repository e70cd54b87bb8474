import type { InsightsStore } from '../insights';
import { periodFigures } from '../insights';
import type { ThemeStore } from '../themes';
import type { SentimentWindow } from './spikeDetection';

/** A range of publication dates, [from, to). */
export interface Window {
  from: Date;
  to: Date;
}

/** What the detector reads of the organization's feedback, from the features that keep it. */
export interface AlertSources {
  organizations(): Promise<string[]>;
  /** Items per theme in each window. */
  themeCounts(orgId: string, windows: Window[]): Promise<Array<Map<string, number>>>;
  /** Labels of the organization's active themes among `ids`. */
  labels(orgId: string, ids: string[]): Promise<Map<string, string>>;
  /** Suggestions first found in [since, until]. */
  newSuggestions(orgId: string, since: Date, until: Date): Promise<Set<string>>;
  /**
   * False while a theme computation's changes are not counted in the kept figures yet (a pass then would
   * see today's items themed and their baseline days not: a spike that is not one); `current`: and themed
   * up to the newest item (a digest waits for it; alerts need not: new items are only counted later).
   */
  settled(orgId: string, current?: boolean): Promise<boolean>;
  /** Items and negative items in each window. */
  sentiment(orgId: string, windows: Window[]): Promise<SentimentWindow[]>;
}

/**
 * The sources over the themes' kept day figures (whole UTC days from `feedback_theme_days`, partial days
 * from the items) and the insights' kept day cells: a pass reads a few small documents per day, whatever
 * the organization's size.
 */
export function alertSources(themes: ThemeStore, insights: InsightsStore): AlertSources {
  return {
    organizations: () => themes.organizations(),
    async themeCounts(orgId, windows) {
      const counts = await themes.counts(orgId, undefined, windows);
      return counts.map((byTheme) => new Map([...byTheme].map(([id, figures]) => [id, figures.count])));
    },
    async labels(orgId, ids) {
      return new Map((await themes.byIds(orgId, ids)).map((theme) => [theme.id, theme.label]));
    },
    async newSuggestions(orgId, since, until) {
      return new Set(await themes.suggestedSince(orgId, since, until));
    },
    settled: (orgId, current) => themes.figuresSettled(orgId, current),
    async sentiment(orgId, windows) {
      if (windows.length === 0) return [];
      const figures = await periodFigures(insights, orgId, { ...windows[0], interval: 'month' }, windows);
      return figures.map((period) => ({ total: period.total, negative: period.bySentiment.negative }));
    },
  };
}
