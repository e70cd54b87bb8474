import type { Connection, Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { DAY_MS, utcDay } from '../domain/countDelta';
import { CountStore, themeFiguresOf, type ThemeFigures } from './countStore';
import { ANY_SENTIMENT, ANY_STATUS } from './feedbackList';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';

export interface ThemeCounts {
  count: number;
  negative: number;
}

/** A range of publication dates, [from, to); either bound open. */
export interface Period {
  from?: Date;
  to?: Date;
}

/** Marked days counted again per refresh at most (the rest by the next one): five years of five sources. */
const REFRESH_DAYS = 10_000;

const floorDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
const ceilDay = (date: Date) => new Date(Math.ceil(date.getTime() / DAY_MS) * DAY_MS);

/** Adds one item's themes to per-theme figures. */
export function addThemes(
  figures: ThemeFigures,
  themeIds: readonly string[],
  sentiment: string | null | undefined,
): void {
  for (const id of themeIds) {
    const entry = (figures[id] ??= { count: 0, negative: 0 });
    entry.count += 1;
    if (sentiment === 'negative') entry.negative += 1;
  }
}

/**
 * Items and negative items per theme, kept per organization x UTC day x source in the day cells of
 * `feedback_counts` (`t`, beside the day's status x sentiment counts), so that a range reads at most one
 * small document per day and source whatever the number of items.
 *
 * Consistency: a day's theme figures are counted from its items, never incremented. Every change that
 * touches a day cell (a create, removal, status or sentiment change, merge, unmerge, import; see
 * CountStore.apply) marks it, in the same exactly-once update as its counts; the theme worker marks the
 * days of the items whose themes it changes before it writes them. The theme worker counts the marked
 * days again (one index-served read of the day's items each), so the whole days of a range are as of
 * the worker's last pass (about THEMES_INTERVAL_MS). The partial first and last day of a range with a
 * time of day are counted from the items (at most two days of them), as totals do. `counts recount`
 * recounts them with the rest.
 */
export class KeptThemeCounts {
  private readonly items: Model<FeedbackDocument>;
  private readonly cells: CountStore;

  constructor(connection: Connection) {
    this.items = feedbackModel(connection);
    this.cells = new CountStore(connection);
  }

  /**
   * Per-theme figures of the items published in each period [from, to) (either bound open), of one source
   * or all. The whole days of every period come from one read of the day cells (a range and its previous
   * period: one read), the partial days from their items.
   */
  async counts(
    orgId: string,
    source: string | undefined,
    periods: Period[],
    now = new Date(),
  ): Promise<Array<Map<string, ThemeCounts>>> {
    const spans = periods.map(({ from, to }) => {
      const wholeFrom = from && ceilDay(from);
      const wholeTo = to ? floorDay(to) : floorDay(now);
      // No whole day: at most two partial days (or the items from `from` on), from their items.
      return {
        from,
        to,
        wholeFrom,
        wholeTo,
        whole: !wholeFrom || wholeFrom.getTime() < wholeTo.getTime(),
        figures: {} as ThemeFigures,
      };
    });
    const withDays = spans.filter((span) => span.whole);
    if (withDays.length > 0) {
      const first = withDays.some((span) => !span.wholeFrom)
        ? ''
        : utcDay(new Date(Math.min(...withDays.map((span) => span.wholeFrom!.getTime()))));
      const last = utcDay(new Date(Math.max(...withDays.map((span) => span.wholeTo.getTime()))));
      for (const cell of await this.cells.dayThemes(orgId, first, last)) {
        if (source !== undefined && cell.source !== source) continue;
        const day = cell.key!;
        for (const span of withDays) {
          if ((span.wholeFrom && day < utcDay(span.wholeFrom)) || day >= utcDay(span.wholeTo)) continue;
          for (const [id, { count, negative }] of Object.entries(themeFiguresOf(cell))) {
            const entry = (span.figures[id] ??= { count: 0, negative: 0 });
            entry.count += count;
            entry.negative += negative;
          }
        }
      }
    }
    for (const span of spans) {
      if (!span.whole) {
        await this.countItems(span.figures, orgId, source, span.from!, span.to);
        continue;
      }
      if (span.from && span.wholeFrom!.getTime() !== span.from.getTime())
        await this.countItems(span.figures, orgId, source, span.from, span.wholeFrom!);
      // Without an end, the items from today's start on (today's cell may not be counted yet).
      if (!span.to || span.wholeTo.getTime() !== span.to.getTime())
        await this.countItems(span.figures, orgId, source, span.wholeTo, span.to);
    }
    return spans.map((span) => new Map(Object.entries(span.figures).filter(([, entry]) => entry.count > 0)));
  }

  /** Adds the themes of the items published in [from, to) (to open: from on), through the (organization, [source,] status, sentiment, date) index. */
  private async countItems(
    figures: ThemeFigures,
    orgId: string,
    source: string | undefined,
    from: Date,
    to: Date | undefined,
  ): Promise<void> {
    for await (const doc of this.themedItems(orgId, source, from, to)) addThemes(figures, doc.themeIds, doc.sentiment);
  }

  private async *themedItems(
    orgId: string,
    source: string | undefined,
    from: Date,
    to: Date | undefined,
  ): AsyncGenerator<ThemedItem> {
    const cursor = this.items.collection.find(
      {
        orgId,
        ...(source !== undefined ? { source } : {}),
        status: ANY_STATUS,
        sentiment: ANY_SENTIMENT,
        publishedDate: { $gte: from, ...(to ? { $lt: to } : {}) },
        themeIds: { $exists: true },
      },
      {
        projection: { _id: 0, themeIds: 1, sentiment: 1, source: 1, publishedDate: 1 },
        batchSize: 5_000,
        maxTimeMS: DEFAULT_MAX_TIME_MS,
      },
    );
    for await (const doc of cursor)
      yield {
        themeIds: (doc.themeIds as string[] | undefined) ?? [],
        sentiment: doc.sentiment as string | null | undefined,
        source: doc.source as string,
        day: utcDay(doc.publishedDate as Date),
      };
  }

  /** Marks the days of these publication dates (or every day of the organization) to be counted again. */
  async mark(orgId: string, dates?: Date[]): Promise<void> {
    await this.cells.markDays(orgId, dates && [...new Set(dates.map(utcDay))]);
  }

  async hasMarked(orgId: string): Promise<boolean> {
    return (await this.cells.dirtyDays(orgId, 1)).length > 0;
  }

  /**
   * Counts the marked days of the organization again from their items; returns how many. Marked days are
   * read in windows of up to REFRESH_WINDOW_DAYS consecutive days, every source at once (one index-served
   * read per window instead of one per day and source: after a bulk import or a recount every day is
   * marked), and their figures written in one bulk write per window.
   */
  async refresh(orgId: string): Promise<number> {
    // Read once: a day changed while it was counted stays marked, for the next pass.
    const days = await this.cells.dirtyDays(orgId, REFRESH_DAYS);
    for (const window of dayWindows(days)) {
      const start = new Date(`${window[0].key}T00:00:00.000Z`);
      const end = new Date(new Date(`${window[window.length - 1].key}T00:00:00.000Z`).getTime() + DAY_MS);
      const figures = new Map(window.map((cell) => [`${cell.key} ${cell.source}`, {} as ThemeFigures]));
      for await (const item of this.themedItems(orgId, undefined, start, end)) {
        const cell = figures.get(`${item.day} ${item.source}`);
        if (cell) addThemes(cell, item.themeIds, item.sentiment);
      }
      await this.cells.setThemes(
        window.map((cell) => ({ id: cell._id, v: cell.v, t: figures.get(`${cell.key} ${cell.source}`)! })),
      );
    }
    return days.length;
  }
}

interface ThemedItem {
  themeIds: string[];
  sentiment: string | null | undefined;
  source: string;
  /** UTC day of publishedDate (YYYY-MM-DD). */
  day: string;
}

/** Marked days per read: a week at most, so one read stays well inside its time limit at an organization's busiest. */
const REFRESH_WINDOW_DAYS = 7;

/** Marked day cells grouped by day into windows spanning at most REFRESH_WINDOW_DAYS days, in day order. */
function dayWindows<C extends { key?: string }>(cells: C[]): C[][] {
  const sorted = [...cells].sort((a, b) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0));
  const windows: C[][] = [];
  for (const cell of sorted) {
    const current = windows[windows.length - 1];
    const opened = current && new Date(`${current[0].key}T00:00:00.000Z`).getTime();
    if (current && new Date(`${cell.key}T00:00:00.000Z`).getTime() - opened! < REFRESH_WINDOW_DAYS * DAY_MS)
      current.push(cell);
    else windows.push([cell]);
  }
  return windows;
}
