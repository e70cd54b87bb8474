import { Schema, Types, type Connection, type Model, type UpdateQuery } from 'mongoose';
import { appError, DEFAULT_MAX_TIME_MS, ErrorCode } from '@fi/shared';
import { buildIndexes, newObjectIdHex } from '@fi/shared/database';
import { utcDay, type FeedbackItem, type ThemeMatch } from '../../core';
import { feedbackModel, idChunks, toItem, type FeedbackDocument } from '../../core/data';
import type { ThemeDayStore } from './themeDays';
import { themeModel, toTheme, type Theme, type ThemeDocument } from './themeModel';

/** A person's correction of one item's curated theme: the newest one of a pair is kept. */
export interface Correction {
  itemId: string;
  themeId: string;
  /** True for assignFeedbackTheme, false for unassignFeedbackTheme. */
  assigned: boolean;
  at: Date;
}

interface CorrectionDocument {
  /** `orgId itemId themeId`: one correction per pair, the newest. */
  _id: string;
  orgId: string;
  itemId: string;
  themeId: string;
  assigned: boolean;
  at: Date;
}

const correctionSchema = new Schema<CorrectionDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    itemId: { type: String, required: true },
    themeId: { type: String, required: true },
    assigned: { type: Boolean, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'feedback_theme_corrections', versionKey: false },
);
correctionSchema.index({ orgId: 1, at: 1 });
correctionSchema.index({ orgId: 1, themeId: 1 });

/** An organization's taxonomy being changed: one document while a write holds it (see TaxonomyStore.exclusive). */
interface TaxonomyLockDocument {
  _id: string;
  holder: string;
  until: Date;
}

const lockSchema = new Schema<TaxonomyLockDocument>(
  {
    _id: { type: String, required: true },
    holder: { type: String, required: true },
    until: { type: Date, required: true },
  },
  { collection: 'feedback_taxonomy_locks', versionKey: false },
);

/** A taxonomy write holds its organization's lock this long at most (a holder that died frees it then). */
const LOCK_MS = 10_000;
/** Tries to take a held lock, `LOCK_WAIT_MS` apart: about 3 s, far longer than a write of the taxonomy takes. */
const LOCK_TRIES = 60;
const LOCK_WAIT_MS = 50;

/** An item's themes as its last write of them left them, to correct them with a write conditional on `rev`. */
export interface ItemThemes {
  id: string;
  themeIds: string[];
  matches: ThemeMatch[];
  rev: number;
  day: string;
  source: string;
}

/** A curated theme as a person sets it (see taxonomy.ts). */
export interface CuratedWrite {
  label: string;
  description: string | null;
  keywords: string[];
  /** Null: none for a new theme, and a replaced one keeps those it has. */
  exampleIds: string[] | null;
  parentId: string | null;
}

/** Corrections read per organization at most: far more than people make, and a bound on one read. */
export const MAX_CORRECTIONS = 50_000;

/** Curated themes of an organization at most (the taxonomy a person keeps, and a bound on each assignment). */
export const MAX_CURATED_THEMES = 500;

/** The write of an item's themes and their matches; every such write raises `themeRev`, on which a correction's write is conditional (writeItemThemes). */
export function themesUpdate(themeIds: string[], matches: ThemeMatch[]): UpdateQuery<FeedbackDocument> {
  const set: Pick<FeedbackDocument, 'themeIds' | 'themeMatches'> = {};
  const unset: Partial<Record<'themeIds' | 'themeMatches', 1>> = {};
  if (themeIds.length > 0) set.themeIds = themeIds;
  else unset.themeIds = 1;
  if (matches.length > 0) set.themeMatches = matches;
  else unset.themeMatches = 1;
  return {
    ...(Object.keys(set).length > 0 ? { $set: set } : {}),
    ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
    $inc: { themeRev: 1 },
  };
}

const unavailable = (message: string) => appError(ErrorCode.SERVICE_UNAVAILABLE, message);

const isObjectId = (id: string) => /^[0-9a-f]{24}$/i.test(id);

/**
 * The curated taxonomy (`feedback_themes` documents with `curated: true`), people's corrections
 * (`feedback_theme_corrections`), and the writes of one item's themes that a correction makes.
 */
export class TaxonomyStore {
  private readonly themes: Model<ThemeDocument>;
  private readonly corrections: Model<CorrectionDocument>;
  private readonly items: Model<FeedbackDocument>;
  private readonly locks: Model<TaxonomyLockDocument>;

  constructor(
    connection: Connection,
    private readonly days: ThemeDayStore,
  ) {
    this.themes = themeModel(connection);
    this.corrections =
      connection.models.FeedbackThemeCorrection ??
      connection.model<CorrectionDocument>('FeedbackThemeCorrection', correctionSchema);
    this.items = feedbackModel(connection);
    this.locks =
      connection.models.FeedbackTaxonomyLock ??
      connection.model<TaxonomyLockDocument>('FeedbackTaxonomyLock', lockSchema);
  }

  /**
   * Runs a write of the organization's taxonomy alone (its rules read the whole taxonomy: nesting, cycles, the
   * number of themes): the lock is a document whose id is the organization, so of two writers the unique id
   * lets one insert it; the other waits for its removal (or its expiry, when its holder died). Throws
   * SERVICE_UNAVAILABLE when the lock stays taken for about 3 s.
   */
  async exclusive<T>(orgId: string, write: () => Promise<T>): Promise<T> {
    const holder = newObjectIdHex();
    for (let tries = 0; ; tries += 1) {
      try {
        await this.locks.create({ _id: orgId, holder, until: new Date(Date.now() + LOCK_MS) });
        break;
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
        if (tries >= LOCK_TRIES) throw unavailable('The taxonomy is being changed by another request: try again');
        await this.locks.deleteOne({ _id: orgId, until: { $lt: new Date() } });
        await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
      }
    }
    try {
      return await write();
    } finally {
      await this.locks.deleteOne({ _id: orgId, holder });
    }
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([buildIndexes(this.corrections), buildIndexes(this.locks)]);
  }

  /** The organization's curated themes, by label. */
  async curated(orgId: string): Promise<Theme[]> {
    const docs = await this.themes
      .find({ orgId, curated: true, active: true })
      .sort({ label: 1, _id: 1 })
      .limit(MAX_CURATED_THEMES)
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument[]>();
    return docs.map(toTheme);
  }

  /** An active theme of the organization, curated or suggested. */
  async find(orgId: string, id: string): Promise<Theme | null> {
    const doc = await this.themes
      .findOne({ _id: id, orgId, active: true })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument>();
    return doc ? toTheme(doc) : null;
  }

  /** Which of `ids` are items of the organization. */
  async existingItems(orgId: string, ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of idChunks(ids.filter(isObjectId))) {
      const docs = await this.items
        .find({ _id: { $in: chunk.map((id) => new Types.ObjectId(id)) } }, { orgId: 1 })
        .maxTimeMS(DEFAULT_MAX_TIME_MS)
        .lean<Array<{ _id: Types.ObjectId; orgId: string }>>();
      for (const doc of docs) if (doc.orgId === orgId) found.add(doc._id.toHexString());
    }
    return found;
  }

  /** The texts of the organization's items among `ids` (examples of curated themes). */
  async texts(orgId: string, ids: readonly string[]): Promise<Map<string, { title: string; text: string }>> {
    const texts = new Map<string, { title: string; text: string }>();
    for (const chunk of idChunks([...new Set(ids)].filter(isObjectId))) {
      const docs = await this.items
        .find({ _id: { $in: chunk.map((id) => new Types.ObjectId(id)) } }, { orgId: 1, title: 1, content: 1 })
        .maxTimeMS(DEFAULT_MAX_TIME_MS)
        .lean<Array<Pick<FeedbackDocument, '_id' | 'orgId' | 'title' | 'content'>>>();
      for (const doc of docs)
        if (doc.orgId === orgId) texts.set(doc._id.toHexString(), { title: doc.title, text: doc.content });
    }
    return texts;
  }

  async insert(orgId: string, fields: CuratedWrite, now = new Date()): Promise<Theme> {
    const doc: ThemeDocument = {
      _id: `th_${newObjectIdHex()}`,
      orgId,
      renamed: true,
      active: true,
      curated: true,
      ...documentFields(fields),
      exampleIds: fields.exampleIds ?? [],
      createdAt: now,
      updatedAt: now,
    };
    await this.themes.create(doc);
    return toTheme(doc);
  }

  /**
   * Replaces a curated theme's fields, its examples only when `fields` has them (else it keeps its own); null
   * when it is not a curated theme of the organization.
   */
  async replace(orgId: string, id: string, fields: CuratedWrite, now = new Date()): Promise<Theme | null> {
    const { description, parentId, ...set } = documentFields(fields);
    const doc = await this.themes
      .findOneAndUpdate(
        { _id: id, orgId, curated: true, active: true },
        {
          $set: { ...set, ...(description ? { description } : {}), ...(parentId ? { parentId } : {}), updatedAt: now },
          $unset: { ...(description ? {} : { description: 1 }), ...(parentId ? {} : { parentId: 1 }) },
        },
        { new: true },
      )
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument>();
    return doc ? toTheme(doc) : null;
  }

  /**
   * Removes a curated theme: its children move up to its parent and its corrections are forgotten; its items
   * lose it at the next assignment. False when it is not a curated theme of the organization.
   */
  async remove(orgId: string, id: string, now = new Date()): Promise<boolean> {
    const doc = await this.themes
      .findOneAndDelete({ _id: id, orgId, curated: true })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument>();
    if (!doc) return false;
    await this.themes.updateMany(
      { orgId, parentId: id },
      doc.parentId
        ? { $set: { parentId: doc.parentId, updatedAt: now } }
        : { $unset: { parentId: 1 }, $set: { updatedAt: now } },
    );
    await this.corrections.deleteMany({ orgId, themeId: id });
    return true;
  }

  /**
   * Makes an active suggested theme curated under its id, label and keywords, its newest items (up to
   * `examples`) its examples; a curated one is returned as it is. Null when the organization has no such theme.
   */
  async accept(orgId: string, id: string, examples: number, now = new Date()): Promise<Theme | null> {
    const theme = await this.find(orgId, id);
    if (!theme || theme.curated) return theme;
    const items = await this.items
      .find({ orgId, themeIds: id }, { _id: 1 })
      .sort({ _id: -1 })
      .limit(examples)
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<Array<{ _id: Types.ObjectId }>>();
    const doc = await this.themes
      .findOneAndUpdate(
        { _id: id, orgId, active: true },
        {
          $set: {
            curated: true,
            renamed: true,
            exampleIds: items.map((item) => item._id.toHexString()),
            updatedAt: now,
          },
          $unset: { mergedInto: 1, formerMembers: 1 },
        },
        { new: true },
      )
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<ThemeDocument>();
    return doc ? toTheme(doc) : null;
  }

  /** Records a person's correction of an item's curated theme (the newest of a pair wins). */
  async correct(orgId: string, itemId: string, themeId: string, assigned: boolean, now = new Date()): Promise<void> {
    await this.corrections.updateOne(
      { _id: `${orgId} ${itemId} ${themeId}` },
      { $set: { orgId, itemId, themeId, assigned, at: now } },
      { upsert: true },
    );
  }

  /** The organization's corrections, oldest first; those made at or after `since` only when given. */
  async correctionsOf(orgId: string, since?: Date): Promise<Correction[]> {
    const docs = await this.corrections
      .find({ orgId, ...(since ? { at: { $gte: since } } : {}) })
      .sort({ at: 1 })
      .limit(MAX_CORRECTIONS)
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<CorrectionDocument[]>();
    return docs.map(({ itemId, themeId, assigned, at }) => ({ itemId, themeId, assigned, at }));
  }

  /** An item of the organization's themes as last written; null when it is not an item of the organization. */
  async itemThemes(orgId: string, itemId: string): Promise<ItemThemes | null> {
    if (!isObjectId(itemId)) return null;
    const doc = await this.items
      .findById(new Types.ObjectId(itemId), {
        orgId: 1,
        themeIds: 1,
        themeMatches: 1,
        themeRev: 1,
        publishedDate: 1,
        source: 1,
      })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<FeedbackDocument>();
    if (!doc || doc.orgId !== orgId) return null;
    return {
      id: itemId,
      themeIds: doc.themeIds ?? [],
      matches: doc.themeMatches ?? [],
      rev: doc.themeRev ?? 0,
      day: utcDay(doc.publishedDate),
      source: doc.source,
    };
  }

  /**
   * Writes an item's themes unless another write of them came first (its `themeRev` moved on): true when
   * written. The item's day is marked first, so that its theme figures are counted again.
   */
  async writeItemThemes(orgId: string, item: ItemThemes, themeIds: string[], matches: ThemeMatch[]): Promise<boolean> {
    await this.days.mark(orgId, [item]);
    const result = await this.items.updateOne(
      {
        _id: new Types.ObjectId(item.id),
        orgId,
        ...(item.rev > 0 ? { themeRev: item.rev } : { themeRev: { $exists: false } }),
      },
      themesUpdate(themeIds, matches),
    );
    return result.modifiedCount === 1;
  }

  /** An item of the organization as the API shows it. */
  async item(orgId: string, itemId: string): Promise<FeedbackItem | null> {
    if (!isObjectId(itemId)) return null;
    const doc = await this.items
      .findById(new Types.ObjectId(itemId))
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<FeedbackDocument>();
    return doc && doc.orgId === orgId ? toItem(doc) : null;
  }
}

const documentFields = (fields: CuratedWrite) => ({
  label: fields.label,
  keywords: fields.keywords,
  ...(fields.exampleIds ? { exampleIds: fields.exampleIds } : {}),
  ...(fields.description ? { description: fields.description } : {}),
  ...(fields.parentId ? { parentId: fields.parentId } : {}),
});
