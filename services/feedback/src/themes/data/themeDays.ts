import type { Collection, Connection, Model, Types } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { INDEX_BUILD_TIME_LIMIT } from '@fi/shared/database';
import { cellKey, CountStore, DAY_MS, utcDay } from '../../core';
import { ANY_SENTIMENT, ANY_STATUS, dayKeys, feedbackModel, type FeedbackDocument } from '../../core/data';

export interface ThemeCounts {
  count: number;
  negative: number;
}

/** Items and negative items by theme id. */
export type ThemeFigures = Record<string, ThemeCounts>;

/** A range of publication dates, [from, to); either bound open. */
export interface Period {
  from?: Date;
  to?: Date;
}

interface ThemeRow {
  theme: string;
  count: number;
  negative: number;
}

/**
 * One organization's theme figures of one UTC day and source (`feedback_theme_days`), under the id of the
 * day's kept cell (see core/model/countDelta.ts).
 */
interface ThemeDayDocument {
  _id: string;
  orgId: string;
  /** YYYY-MM-DD. */
  day: string;
  source: string;
  /**
   * Items and negative items per theme. A list rather than an object keyed by theme id: FerretDB v1 takes
   * the `$set` of an embedded document whose keys changed but whose values did not for no change (measured),
   * a list it compares whole.
   */
  t: ThemeRow[];
  /** The day cell's version (`v`) when the figures were counted: a cell with another has changed since. */
  v: number;
  /** Marked by a theme computation that changed the themes of the day's items: to be counted again. */
  dirty: boolean;
}

/** A day to count: its cell's id, day, source and version (the cell's, read before counting). */
export interface DayToCount {
  id: string;
  day: string;
  source: string;
  v: number;
}

const themeRows = (figures: ThemeFigures): ThemeRow[] =>
  Object.entries(figures)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([theme, { count, negative }]) => ({ theme, count, negative }));

const figuresOf = (rows: ThemeRow[] | undefined): ThemeFigures =>
  Object.fromEntries((rows ?? []).map(({ theme, count, negative }) => [theme, { count, negative }]));

export const dayIdOf = (orgId: string, day: string, source: string) =>
  cellKey({ scope: 'day', orgId, key: day, source });

/** Marked days counted again per refresh at most (the rest by the next one): five years of five sources. */
export const REFRESH_DAYS = 10_000;

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

/** How far two days' theme figures are apart (items and negative items per theme). */
const drift = (have: ThemeFigures, want: ThemeFigures) => {
  let off = 0;
  for (const id of new Set([...Object.keys(have), ...Object.keys(want)])) {
    off +=
      Math.abs((have[id]?.count ?? 0) - (want[id]?.count ?? 0)) +
      Math.abs((have[id]?.negative ?? 0) - (want[id]?.negative ?? 0));
  }
  return off;
};

/** An item as a count of theme figures reads it. */
export interface ThemedItem {
  themeIds: string[];
  sentiment: string | null | undefined;
  source: string;
  /** UTC day of publishedDate (YYYY-MM-DD). */
  day: string;
}

/**
 * Items and negative items per theme, kept per organization x UTC day x source in `feedback_theme_days`,
 * so that a range reads at most one small document per day and source whatever the number of items.
 *
 * Consistency: a day's theme figures are counted from its items, never incremented. Every change of an
 * item that touches a day's kept counts raises the day cell's version and stamps it (core/data/countStore.ts,
 * in the same exactly-once update as its counts); the theme worker counts the days whose cell changed
 * since it last looked and whose version differs from the one it counted, and the days whose items'
 * themes it changed itself (marked before it writes them). So the whole days of a range are as of the
 * worker's last pass (about THEMES_INTERVAL_MS). The partial first and last day of a range with a time of
 * day are counted from the items (at most two days of them), as totals do. The worker never writes the
 * kept counts, which the API's writes change: on the embedded engine two processes writing one document
 * at once can lose a write.
 */
export class ThemeDayStore {
  private readonly days: Collection<ThemeDayDocument>;
  private readonly items: Model<FeedbackDocument>;
  private readonly cells: CountStore;

  constructor(connection: Connection) {
    this.days = connection.collection<ThemeDayDocument>('feedback_theme_days');
    this.items = feedbackModel(connection);
    this.cells = new CountStore(connection);
  }

  async ensureIndexes(): Promise<void> {
    await this.days.createIndex({ orgId: 1, day: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.days.createIndex({ orgId: 1, dirty: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * Per-theme figures of the items published in each period [from, to) (either bound open), of one source
   * or all. The whole days of every period come from one read of the theme days (a range and its previous
   * period: one read), the partial days from their items.
   */
  async counts(
    orgId: string,
    source: string | undefined,
    periods: Period[],
    now = new Date(),
  ): Promise<Array<Map<string, ThemeCounts>>> {
    const floorDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
    const ceilDay = (date: Date) => new Date(Math.ceil(date.getTime() / DAY_MS) * DAY_MS);
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
      const docs = await this.days
        .find(
          { orgId, day: dayKeys(first, last) },
          { projection: { _id: 0, day: 1, source: 1, t: 1 }, maxTimeMS: DEFAULT_MAX_TIME_MS },
        )
        .toArray();
      for (const doc of docs) {
        if (source !== undefined && doc.source !== source) continue;
        for (const span of withDays) {
          if ((span.wholeFrom && doc.day < utcDay(span.wholeFrom)) || doc.day >= utcDay(span.wholeTo)) continue;
          for (const [id, { count, negative }] of Object.entries(figuresOf(doc.t))) {
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
      // Without an end, the items from today's start on (today's figures may not be counted yet).
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

  /** The themed items published in [from, to) (to open: from on), streamed. */
  async *themedItems(
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

  /**
   * Every item of the organization as a count of theme figures reads it, newest first, in `_id` pages of
   * `pageSize` (each page its own index-served read, within its time limit).
   */
  async *everyItem(orgId: string, pageSize = 5_000): AsyncGenerator<ThemedItem> {
    for (let before: Types.ObjectId | null = null; ;) {
      const docs = await this.items.collection
        .find(
          { orgId, ...(before ? { _id: { $lt: before } } : {}) },
          {
            projection: { themeIds: 1, sentiment: 1, source: 1, publishedDate: 1 },
            sort: { _id: -1 },
            limit: pageSize,
            maxTimeMS: DEFAULT_MAX_TIME_MS,
          },
        )
        .toArray();
      for (const doc of docs)
        yield {
          themeIds: (doc.themeIds as string[] | undefined) ?? [],
          sentiment: doc.sentiment as string | null | undefined,
          source: doc.source as string,
          day: utcDay(doc.publishedDate as Date),
        };
      if (docs.length < pageSize) return;
      before = docs[docs.length - 1]._id as Types.ObjectId;
    }
  }

  /** How many days (of a source) of the organization have theme figures kept or marked. */
  async dayCount(orgId: string): Promise<number> {
    return this.days.countDocuments({ orgId }, { maxTimeMS: DEFAULT_MAX_TIME_MS });
  }

  /**
   * Marks the days (of these sources) whose items' themes a computation or a person's correction is about to
   * change. A correction marks beside the theme worker: an upsert that loses the race to the insert of the
   * same day is a duplicate key, and done again it finds the day and marks it.
   */
  async mark(orgId: string, days: Array<{ day: string; source: string }>, retried = false): Promise<void> {
    const unique = new Map(days.map(({ day, source }) => [dayIdOf(orgId, day, source), { day, source }]));
    if (unique.size === 0) return;
    try {
      await this.upsertMarks(orgId, unique);
    } catch (error) {
      if (retried || (error as { code?: number }).code !== 11000) throw error;
      await this.mark(orgId, days, true);
    }
  }

  private async upsertMarks(orgId: string, unique: Map<string, { day: string; source: string }>): Promise<void> {
    await this.days.bulkWrite(
      [...unique].map(([_id, { day, source }]) => ({
        updateOne: {
          filter: { _id },
          update: { $set: { dirty: true }, $setOnInsert: { orgId, day, source, t: [], v: -1 } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /** Whether some day is marked by a computation. */
  async hasMarked(orgId: string): Promise<boolean> {
    return (await this.days.findOne({ orgId, dirty: true }, { projection: { _id: 1 } })) !== null;
  }

  /** Marks every day of the organization (its first count: an upgrade that kept no theme figures yet). */
  async markAll(orgId: string): Promise<void> {
    const days = (await this.cells.find(orgId, 'day')).map((cell) => ({ day: cell.key, source: cell.source ?? '' }));
    for (let at = 0; at < days.length; at += 1_000) await this.mark(orgId, days.slice(at, at + 1_000));
  }

  /**
   * The days to count again (REFRESH_DAYS at most): those marked by a computation, and those whose cell
   * changed at `since` or later and is not at the version counted; each with its cell's version now.
   */
  async toCount(orgId: string, since: Date): Promise<DayToCount[]> {
    const [changed, marked] = await Promise.all([
      this.cells.daysChangedSince(orgId, since, REFRESH_DAYS),
      this.days.find({ orgId, dirty: true }, { projection: { day: 1, source: 1 }, limit: REFRESH_DAYS }).toArray(),
    ]);
    const wanted = new Map<string, DayToCount>(
      changed.map((cell) => [cell._id, { id: cell._id, day: cell.key, source: cell.source ?? '', v: cell.v }]),
    );
    const counted = new Map(
      (
        await this.days
          .find(
            { _id: { $in: [...wanted.keys()] } },
            { projection: { v: 1, dirty: 1 }, maxTimeMS: DEFAULT_MAX_TIME_MS },
          )
          .toArray()
      ).map((doc) => [doc._id, doc]),
    );
    for (const [id, day] of wanted) {
      const doc = counted.get(id);
      if (doc && doc.v === day.v && !doc.dirty) wanted.delete(id);
    }
    const markedOnly = marked.filter((doc) => !wanted.has(doc._id));
    const versions = new Map(
      (
        await this.cells.byRefs(markedOnly.map((doc) => ({ scope: 'day', orgId, key: doc.day, source: doc.source })))
      ).map((cell) => [cell._id, cell.v ?? 0]),
    );
    for (const doc of markedOnly)
      wanted.set(doc._id, { id: doc._id, day: doc.day, source: doc.source, v: versions.get(doc._id) ?? 0 });
    return [...wanted.values()].slice(0, REFRESH_DAYS);
  }

  /** Stores days' theme figures counted from their items, each with the cell version read before counting. */
  async write(orgId: string, days: Array<DayToCount & { t: ThemeFigures }>): Promise<void> {
    if (days.length === 0) return;
    await this.days.bulkWrite(
      days.map(({ id, day, source, v, t }) => ({
        updateOne: {
          filter: { _id: id },
          update: { $set: { t: themeRows(t), v, dirty: false }, $setOnInsert: { orgId, day, source } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Rewrites the organization's theme days that differ from `want` (by day cell id, counted from every item
   * by `counts recount`), removing those no item is counted in; returns the days repaired and the drift.
   */
  async replaceAll(
    orgId: string,
    want: Map<string, { day: string; source: string; t: ThemeFigures }>,
  ): Promise<{ repaired: number; drift: number }> {
    const stored = new Map((await this.days.find({ orgId }).toArray()).map((doc) => [doc._id, doc]));
    const versions = new Map((await this.cells.find(orgId, 'day')).map((cell) => [cell._id, cell.v ?? 0] as const));
    let repaired = 0;
    let total = 0;
    const writes: Array<DayToCount & { t: ThemeFigures }> = [];
    for (const [id, { day, source, t }] of want) {
      const off = drift(figuresOf(stored.get(id)?.t), t);
      stored.delete(id);
      if (off === 0) continue;
      repaired += 1;
      total += off;
      writes.push({ id, day, source, v: versions.get(id) ?? 0, t });
    }
    await this.write(orgId, writes);
    for (const doc of stored.values()) {
      const off = drift(figuresOf(doc.t), {});
      if (off > 0) repaired += 1;
      total += off;
    }
    if (stored.size > 0) await this.days.deleteMany({ _id: { $in: [...stored.keys()] } });
    return { repaired, drift: total };
  }
}
