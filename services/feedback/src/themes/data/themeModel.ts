import { Schema, type Connection, type Model } from 'mongoose';

export interface ThemeDocument {
  /** The theme's id, kept across recomputations while the theme persists. */
  _id: string;
  orgId: string;
  label: string;
  /** True once a person renamed it: recomputations keep the label. */
  renamed: boolean;
  /** True once the chat model named it (with `summary`): recomputations keep the label while it persists. */
  named?: boolean;
  /** A one-line summary of an automatic theme by the chat model. */
  summary?: string;
  keywords: string[];
  /** False once a recomputation no longer finds it (kept so that a rename is not lost while it is gone). */
  active: boolean;
  /** Set when a person merged it into that theme: computations keep its items there (themes/mergedThemes.ts). */
  mergedInto?: string;
  /** Its items when it was merged: an unmerge finds it again by them, with its id and label. */
  formerMembers?: string[];
  /** True for a theme of the taxonomy people curate (see curatedThemes.ts); computations leave it alone. */
  curated?: boolean;
  /** A curated theme's description, as a person wrote it. */
  description?: string;
  /** Items a person gave a curated theme as examples (or its items when it was accepted). */
  exampleIds?: string[];
  /** The curated theme a curated theme is under. */
  parentId?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface Theme {
  id: string;
  orgId: string;
  label: string;
  keywords: string[];
  /** The chat model's one-line summary of an automatic theme; null without one. */
  summary: string | null;
  /** The theme a person merged it into: it is listed until the next computation folds it in. */
  mergedInto?: string;
  curated: boolean;
  description: string | null;
  parentId: string | null;
  /** A curated theme's examples as a person gave them (empty for a suggestion). */
  exampleIds: string[];
}

const themeSchema = new Schema<ThemeDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    label: { type: String, required: true },
    renamed: { type: Boolean, required: true },
    named: Boolean,
    summary: String,
    keywords: { type: [String], default: [] },
    active: { type: Boolean, required: true },
    mergedInto: String,
    formerMembers: { type: [String], default: undefined },
    curated: Boolean,
    description: String,
    exampleIds: { type: [String], default: undefined },
    parentId: String,
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'feedback_themes', versionKey: false },
);
themeSchema.index({ orgId: 1, active: 1 });
themeSchema.index({ orgId: 1, curated: 1 });

/** The organizations' themes (`feedback_themes`), suggested and curated, one model per connection. */
export const themeModel = (connection: Connection): Model<ThemeDocument> =>
  connection.models.FeedbackTheme ?? connection.model<ThemeDocument>('FeedbackTheme', themeSchema);

export const toTheme = (doc: ThemeDocument): Theme => ({
  id: doc._id,
  orgId: doc.orgId,
  label: doc.label,
  keywords: doc.keywords,
  summary: doc.summary ?? null,
  ...(doc.mergedInto ? { mergedInto: doc.mergedInto } : {}),
  curated: doc.curated === true,
  description: doc.description ?? null,
  parentId: doc.parentId ?? null,
  exampleIds: doc.exampleIds ?? [],
});
