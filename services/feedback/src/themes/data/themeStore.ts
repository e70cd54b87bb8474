import { Schema, Types, type Connection, type Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { buildIndexes } from '@fi/shared/database';
import { CountStore, utcDay, type FeedbackItem, type ThemeMatch } from '../../core';
import { feedbackModel, SMALL_WRITE_BATCH, toItem, type FeedbackDocument } from '../../core/data';
import { ThemeDayStore, type Period, type ThemeCounts } from './themeDays';
import { TaxonomyStore, themesUpdate } from './taxonomyStore';
import { themeModel, toTheme, type Theme, type ThemeDocument } from './themeModel';

export type { Theme, ThemeDocument };

/** A theme as a computation finds it (see themeClustering.ts), to store. */
export interface StoredTheme {
  id: string;
  label: string;
  keywords: string[];
}

/** A theme as the previous computation left it, to keep its id (and label) when it persists. */
export interface PreviousTheme {
  id: string;
  label: string;
  renamed: boolean;
  /** True when the chat model named it: its label stays while it persists, as a person's does. */
  named?: boolean;
  keywords: string[];
  /** Items that had it. */
  members: string[];
  /** The theme a person merged it into (see mergedThemes.ts). */
  mergedInto?: string;
}

/** One document per organization: when its themes were computed, and who is computing them now. */
export interface ThemeRunDocument {
  _id: string;
  computedAt?: Date;
  /** What the items looked like at the last computation: their count and newest id. */
  fingerprint?: string;
  /** An instance computing the themes holds the run until then (so two instances do not both compute). */
  leaseUntil?: Date;
  /** True once every day of the organization was marked for its theme figures (an upgrade's first count). */
  themeDaysKept?: boolean;
  /** When the theme worker last looked for days whose kept counts changed (see ThemeDayStore). */
  daysCheckedAt?: Date;
}

/**
 * When a person last changed an organization's themes (a merge or unmerge, the curated taxonomy, a
 * correction): part of the fingerprint, so that they are computed and assigned again. A document apart
 * from the run, which only the worker writes: on an engine that writes a document back whole without
 * isolation (a stock FerretDB v1; the embedded build before its write locks), an edit written into the run
 * beside the worker's release put back the lease just given back, and no computation ran for the
 * organization for 5 minutes. Two writers, two documents: nothing to race on any engine.
 */
interface ThemeEditDocument {
  _id: string;
  editedAt: Date;
}

export interface ThemeRange {
  from?: Date;
  to?: Date;
  source?: string;
}

const runSchema = new Schema<ThemeRunDocument>(
  {
    _id: { type: String, required: true },
    computedAt: Date,
    fingerprint: String,
    leaseUntil: Date,
    themeDaysKept: Boolean,
    daysCheckedAt: Date,
  },
  { collection: 'feedback_theme_runs', versionKey: false },
);

const editSchema = new Schema<ThemeEditDocument>(
  { _id: { type: String, required: true }, editedAt: { type: Date, required: true } },
  { collection: 'feedback_theme_edits', versionKey: false },
);

/** An item as a theme computation sees it: its title apart, as it names what the item is about. */
export interface ThemedItem {
  id: string;
  title: string;
  text: string;
  themeIds: string[];
  /** Its curated themes and why (see curatedAssignment.ts). */
  matches: ThemeMatch[];
  /** The UTC day and source of the item's kept counts (whose theme figures change with its themes). */
  day: string;
  source: string;
}

/**
 * How far back a count of theme figures looks for days whose kept counts changed, before the last count
 * began: longer than a write of a count takes and than the clocks of two processes may differ (a change is
 * stamped by its writer's clock, before its write lands), so a change stamped before the last count began
 * but written after it is still seen.
 */
export const CHANGED_DAYS_MARGIN_MS = 60_000;

/** Where a count of the theme figures looks for changed days from; null when they were never counted (every day is). */
export const changedSince = (run: ThemeRunDocument | null) =>
  run?.themeDaysKept && run.daysCheckedAt ? new Date(run.daysCheckedAt.getTime() - CHANGED_DAYS_MARGIN_MS) : null;

/** Themes are computed from an organization's newest items up to this many (see docs/intelligence.md). */
export const MAX_THEMED_ITEMS = 10_000;

/**
 * Themes of organizations (`feedback_themes`), their runs (`feedback_theme_runs`), and the theme ids
 * stored on items (`themeIds`, most relevant first), which lists filter on and counts group by.
 */
export class ThemeStore {
  readonly themes: Model<ThemeDocument>;
  private readonly runs: Model<ThemeRunDocument>;
  private readonly edits: Model<ThemeEditDocument>;
  private readonly items: Model<FeedbackDocument>;
  readonly days: ThemeDayStore;
  /** The curated taxonomy and people's corrections. */
  readonly taxonomy: TaxonomyStore;
  private readonly cells: CountStore;

  constructor(connection: Connection) {
    this.days = new ThemeDayStore(connection);
    this.taxonomy = new TaxonomyStore(connection, this.days);
    this.cells = new CountStore(connection);
    this.themes = themeModel(connection);
    this.runs = connection.models.FeedbackThemeRun ?? connection.model<ThemeRunDocument>('FeedbackThemeRun', runSchema);
    this.edits =
      connection.models.FeedbackThemeEdit ?? connection.model<ThemeEditDocument>('FeedbackThemeEdit', editSchema);
    this.items = feedbackModel(connection);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([
      buildIndexes(this.themes),
      buildIndexes(this.runs),
      this.days.ensureIndexes(),
      this.taxonomy.ensureIndexes(),
    ]);
  }

  /** Organizations that have feedback (see CountStore.organizations). */
  organizations(): Promise<string[]> {
    return this.cells.organizations();
  }

  /**
   * The organization's item count and newest id, and when a person last changed its themes: when they are
   * unchanged, so are its themes.
   */
  async fingerprint(orgId: string): Promise<string> {
    const [count, newest, edit] = await Promise.all([
      this.items.countDocuments({ orgId }).maxTimeMS(DEFAULT_MAX_TIME_MS),
      this.items
        .findOne({ orgId }, { _id: 1 })
        .sort({ _id: -1 })
        .maxTimeMS(DEFAULT_MAX_TIME_MS)
        .lean<{ _id: Types.ObjectId }>(),
      this.edits.findById(orgId).maxTimeMS(DEFAULT_MAX_TIME_MS).lean<ThemeEditDocument>(),
    ]);
    return `${count}:${newest?._id.toHexString() ?? ''}${edit ? `:${edit.editedAt.getTime()}` : ''}`;
  }

  async run(orgId: string): Promise<ThemeRunDocument | null> {
    return this.runs.findById(orgId).maxTimeMS(DEFAULT_MAX_TIME_MS).lean<ThemeRunDocument>();
  }

  /** Takes the organization's run for `leaseMs` unless another instance holds it; true when taken. */
  async lease(orgId: string, leaseMs: number, now = new Date()): Promise<boolean> {
    try {
      const taken = await this.runs.findOneAndUpdate(
        { _id: orgId, $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lt: now } }] },
        { $set: { leaseUntil: new Date(now.getTime() + leaseMs) } },
        { upsert: true, new: true },
      );
      return taken !== null;
    } catch (error) {
      // Another instance created the run document first: it holds the lease.
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  async finish(orgId: string, fingerprint: string, computedAt: Date): Promise<void> {
    await this.runs.updateOne({ _id: orgId }, { $set: { computedAt, fingerprint }, $unset: { leaseUntil: 1 } });
  }

  /** Gives the run's lease back without a computation (after a refresh of the kept theme figures only). */
  async release(orgId: string): Promise<void> {
    await this.runs.updateOne({ _id: orgId }, { $unset: { leaseUntil: 1 } });
  }

  /**
   * True when some day's theme figures are to be counted again: never counted (every day then), marked by a
   * computation, or a day whose kept counts changed since the last count (see ThemeDayStore).
   */
  async countsStale(orgId: string, run: ThemeRunDocument | null): Promise<boolean> {
    const since = changedSince(run);
    if (since === null) return true;
    if (await this.days.hasMarked(orgId)) return true;
    return (await this.cells.daysChangedSince(orgId, since, 1)).length > 0;
  }

  /**
   * Whether the organization's kept theme figures agree with its items' themes: counted once, and no day
   * marked by a computation that changed its items' themes (between its writes and its count of their days,
   * a day's items would be themed while its figures are not yet); `current`: and computed since the newest
   * item was added.
   */
  async figuresSettled(orgId: string, current = false): Promise<boolean> {
    const run = await this.run(orgId);
    if (changedSince(run) === null || (await this.days.hasMarked(orgId))) return false;
    // Current: computed since the newest item too (not only counted as far as it was computed).
    return !current || run?.fingerprint === (await this.fingerprint(orgId));
  }

  /** Records how far the theme figures were counted: every day once, and the days changed up to `checkedAt`. */
  async counted(orgId: string, checkedAt: Date): Promise<void> {
    await this.runs.updateOne(
      { _id: orgId },
      { $set: { themeDaysKept: true, daysCheckedAt: checkedAt } },
      { upsert: true },
    );
  }

  /**
   * The newest `limit` items of the organization (id, title, text, current themes, day and source), read in
   * `_id` pages; those older than the item `olderThan` when given.
   */
  async itemsOf(orgId: string, limit: number, pageSize = 2_000, olderThan?: string): Promise<ThemedItem[]> {
    const result: ThemedItem[] = [];
    let before: Types.ObjectId | null = olderThan ? new Types.ObjectId(olderThan) : null;
    while (result.length < limit) {
      const docs: Array<
        Pick<FeedbackDocument, '_id' | 'title' | 'content' | 'themeIds' | 'themeMatches' | 'publishedDate' | 'source'>
      > = (await this.items.collection
        .find(
          { orgId, ...(before ? { _id: { $lt: before } } : {}) },
          {
            projection: { title: 1, content: 1, themeIds: 1, themeMatches: 1, publishedDate: 1, source: 1 },
            sort: { _id: -1 },
            limit: Math.min(pageSize, limit - result.length),
            maxTimeMS: DEFAULT_MAX_TIME_MS,
          },
        )
        .toArray()) as never;
      for (const doc of docs)
        result.push({
          id: doc._id.toHexString(),
          title: doc.title,
          text: doc.content,
          themeIds: doc.themeIds ?? [],
          matches: doc.themeMatches ?? [],
          day: utcDay(doc.publishedDate),
          source: doc.source,
        });
      if (docs.length < pageSize) break;
      before = docs[docs.length - 1]._id;
    }
    return result;
  }

  /** Every theme the organization ever had, with the items that have it now (for ids that persist). */
  async previous(orgId: string, items: Array<{ id: string; themeIds: string[] }>): Promise<PreviousTheme[]> {
    // Curated themes are the taxonomy's, never continued by a computation.
    const docs = await this.themes
      .find({ orgId, curated: { $ne: true } })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument[]>();
    const members = new Map<string, string[]>();
    for (const item of items) for (const id of item.themeIds) members.set(id, [...(members.get(id) ?? []), item.id]);
    return docs.map((doc) => ({
      id: doc._id,
      label: doc.label,
      renamed: doc.renamed,
      ...(doc.named ? { named: true } : {}),
      keywords: doc.keywords,
      members: members.get(doc._id) ?? (doc.mergedInto ? [] : (doc.formerMembers ?? [])),
      ...(doc.mergedInto ? { mergedInto: doc.mergedInto } : {}),
    }));
  }

  /**
   * Stores a computation: its themes (the others become inactive), then the theme ids of the items
   * whose themes changed, in batches, their days marked for the kept theme figures first (so that a
   * computation cut off midway leaves them marked; the lease holder counts them again after its writes).
   */
  async save(
    orgId: string,
    themes: StoredTheme[],
    changes: Array<{ id: string; after: string[]; matches: ThemeMatch[]; day: string; source: string }>,
    now: Date,
  ): Promise<void> {
    await this.days.mark(orgId, changes);
    const ids = themes.map((theme) => theme.id);
    if (themes.length > 0) {
      await this.themes.bulkWrite(
        themes.map((theme) => ({
          updateOne: {
            filter: { _id: theme.id, orgId },
            // A rename made during the computation wins: the label is only set while nobody renamed it.
            update: {
              $set: { keywords: theme.keywords, active: true, updatedAt: now },
              $unset: { formerMembers: 1 },
              $setOnInsert: { orgId, createdAt: now, renamed: false, label: theme.label },
            },
            upsert: true,
          },
        })),
        { ordered: false },
      );
      await this.themes.bulkWrite(
        themes.map((theme) => ({
          updateOne: {
            filter: { _id: theme.id, orgId, renamed: false, named: { $ne: true } },
            update: { $set: { label: theme.label } },
          },
        })),
        { ordered: false },
      );
    }
    await this.themes.updateMany(
      { orgId, active: true, curated: { $ne: true }, _id: { $nin: ids } },
      { $set: { active: false, updatedAt: now } },
    );
    await this.writeItems(orgId, changes, false);
  }

  /**
   * Writes items' themes and curated matches in batches, their days marked for the kept theme figures first
   * (unless the caller did).
   */
  async writeItems(
    orgId: string,
    changes: Array<{ id: string; after: string[]; matches: ThemeMatch[]; day: string; source: string }>,
    mark = true,
  ): Promise<void> {
    if (mark) await this.days.mark(orgId, changes);
    for (let i = 0; i < changes.length; i += SMALL_WRITE_BATCH) {
      await this.items.bulkWrite(
        changes.slice(i, i + SMALL_WRITE_BATCH).map(({ id, after, matches }) => ({
          // By `_id` alone, which every server answers from its primary key (FerretDB v1 scans the collection
          // for anything more); the lease holder is the only computation, and a person's correction made
          // meanwhile is written again after it (see curatedAssignment.ts).
          updateOne: {
            filter: { _id: new Types.ObjectId(id) },
            update: themesUpdate(after, matches),
          },
        })),
        { ordered: false },
      );
    }
  }

  /** Active themes of the organization by id, in the order asked (unknown or inactive ids left out). */
  async byIds(orgId: string, ids: readonly string[]): Promise<Theme[]> {
    if (ids.length === 0) return [];
    const docs = await this.themes
      .find({ _id: { $in: [...new Set(ids)] } })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument[]>();
    const found = new Map(
      docs.filter((doc) => doc.orgId === orgId && doc.active).map((doc) => [doc._id, toTheme(doc)]),
    );
    return ids.map((id) => found.get(id)).filter((theme): theme is Theme => theme !== undefined);
  }

  /**
   * Gives an automatic theme the chat model's label and summary, unless a person renamed it or it is curated
   * or gone meanwhile; true when written.
   */
  async nameByModel(orgId: string, id: string, label: string, summary: string, now = new Date()): Promise<boolean> {
    const result = await this.themes.updateOne(
      { _id: id, orgId, active: true, renamed: false, curated: { $ne: true } },
      { $set: { label, summary, named: true, updatedAt: now } },
    );
    return result.modifiedCount === 1;
  }

  /** Ids of the organization's active suggestions a computation first found in [since, until]. */
  async suggestedSince(orgId: string, since: Date, until: Date): Promise<string[]> {
    const docs = await this.themes
      .find({ orgId, active: true, curated: { $ne: true }, createdAt: { $gte: since, $lte: until } }, { _id: 1 })
      .limit(1_000)
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<Array<{ _id: string }>>();
    return docs.map((doc) => doc._id);
  }

  async rename(orgId: string, id: string, label: string, now = new Date()): Promise<Theme | null> {
    const doc = await this.themes
      .findOneAndUpdate(
        { _id: id, orgId, active: true },
        { $set: { label, renamed: true, updatedAt: now } },
        { new: true },
      )
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument>();
    return doc ? toTheme(doc) : null;
  }

  /**
   * Records that `ids` are merged into `id` (themes merged into them move along), remembering their items,
   * and has the organization's themes computed again (the caller checked the themes are the organization's).
   * The merge itself happens in that computation (themes/mergedThemes.ts).
   */
  async merge(orgId: string, id: string, ids: string[], now = new Date()): Promise<void> {
    const members = await Promise.all(
      ids.map(async (themeId) => {
        const items = await this.items
          .find({ orgId, themeIds: themeId }, { _id: 1 })
          .limit(MAX_THEMED_ITEMS)
          .maxTimeMS(DEFAULT_MAX_TIME_MS)
          .lean<Array<{ _id: Types.ObjectId }>>();
        return items.map((item) => item._id.toHexString());
      }),
    );
    await this.themes.updateMany({ orgId, mergedInto: { $in: ids } }, { $set: { mergedInto: id, updatedAt: now } });
    await this.themes.bulkWrite(
      ids.map((themeId, i) => ({
        updateOne: {
          filter: { _id: themeId, orgId },
          update: { $set: { mergedInto: id, formerMembers: members[i], updatedAt: now } },
        },
      })),
      { ordered: false },
    );
    await this.recomputeSoon(orgId, now);
  }

  /** Separates the themes merged into `id` at the next computation; null when it is not an active theme of the organization. */
  async unmerge(orgId: string, id: string, now = new Date()): Promise<Theme | null> {
    const target = await this.themes
      .findOne({ _id: id, orgId, active: true })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument>();
    if (!target) return null;
    await this.themes.updateMany({ orgId, mergedInto: id }, { $unset: { mergedInto: 1 }, $set: { updatedAt: now } });
    await this.recomputeSoon(orgId, now);
    return toTheme(target);
  }

  /**
   * Changes the organization's fingerprint, so that the worker's next pass computes its themes (also when
   * a computation under way, which read the fingerprint before, finishes after this).
   */
  async recomputeSoon(orgId: string, now: Date): Promise<void> {
    const write = () => this.edits.updateOne({ _id: orgId }, { $set: { editedAt: now } }, { upsert: true });
    try {
      await write();
    } catch (error) {
      // Another edit created the document first (the organization's first edits at once): update it now.
      if ((error as { code?: number }).code !== 11000) throw error;
      await write();
    }
  }

  private match(orgId: string, range: ThemeRange) {
    return {
      orgId,
      themeIds: { $exists: true },
      ...(range.from || range.to
        ? { publishedDate: { ...(range.from ? { $gte: range.from } : {}), ...(range.to ? { $lt: range.to } : {}) } }
        : {}),
      ...(range.source !== undefined ? { source: range.source } : {}),
    };
  }

  /** Items and negative items per theme in each period, of the range's source, from the kept day figures (see ThemeDayStore). */
  counts(orgId: string, source: string | undefined, periods: Period[]): Promise<Array<Map<string, ThemeCounts>>> {
    return this.days.counts(orgId, source, periods);
  }

  /** The newest items of a theme in the range. */
  async examples(orgId: string, themeId: string, range: ThemeRange, take: number): Promise<FeedbackItem[]> {
    if (take === 0) return [];
    const docs = await this.items
      .find({ ...this.match(orgId, range), themeIds: themeId })
      .sort({ createdAt: -1, _id: -1 })
      .limit(take)
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<FeedbackDocument[]>();
    return docs.map(toItem);
  }
}
