import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { withChangeStamp } from '@fi/shared/database';
import type { FeedbackStatus, Sentiment, ThemeMatch } from '../model/feedbackItem';

export interface FeedbackDocument {
  _id: Types.ObjectId;
  orgId: string;
  source: string;
  title: string;
  content: string;
  author?: string;
  email?: string;
  /** Lower-cased email, so contacts match their feedback case-insensitively through an index. */
  emailLower?: string | null;
  /** Lower-cased domain of the email, so an account finds its feedback through an index. */
  emailDomain?: string | null;
  sentiment?: Sentiment;
  /** -1 to 1 when the service computed the sentiment; absent when it was provided. */
  sentimentScore?: number;
  /** `provided` or `computed`; absent on items stored before computed sentiment (then provided). */
  sentimentSource?: string;
  /** ISO 639-1 code of the text's language, null when unsure; absent on items stored before it was read. */
  language?: string | null;
  status: FeedbackStatus;
  /** Ids of the item's themes, most relevant first (written by the theme computation); absent when none. */
  themeIds?: string[];
  /** Why it has its curated themes, best first (written with `themeIds` by the themes feature); absent when none. */
  themeMatches?: ThemeMatch[];
  /** Raised by every write of the item's themes, so that a person's correction read then written is atomic. */
  themeRev?: number;
  metadata?: Record<string, unknown>;
  /** The item's id on its platform; unique per organization and source through ExternalIdStore's claims. */
  externalId?: string;
  publishedDate: Date;
  createdAt: Date;
  /** Time of the last status change; absent on items stored before it existed (then createdAt). */
  updatedAt?: Date;
  /**
   * Ids of the changes of this item (see changes/), written in the same single-document write as the
   * change itself: the relay's proof that a recorded change happened (the newest). The name predates
   * the change stream: changes were first recorded for webhooks.
   */
  webhookEventIds?: string[];
}

const feedbackSchema = new Schema<FeedbackDocument>(
  {
    orgId: { type: String, required: true },
    source: { type: String, required: true },
    title: { type: String, required: true },
    content: { type: String, required: true },
    author: String,
    email: String,
    emailLower: String,
    emailDomain: String,
    sentiment: String,
    sentimentScore: Number,
    sentimentSource: String,
    language: String,
    status: { type: String, required: true },
    themeIds: { type: [String], default: undefined },
    themeMatches: {
      type: [new Schema({ themeId: String, confidence: Number, assignedBy: String }, { _id: false })],
      default: undefined,
    },
    themeRev: Number,
    metadata: { type: Schema.Types.Mixed },
    externalId: String,
    publishedDate: { type: Date, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: Date,
    webhookEventIds: { type: [String], default: undefined },
  },
  { collection: 'feedback_items', versionKey: false, minimize: false },
);

// Equality, sort, range. Every list names status and sentiment (all of their values when not filtered:
// see feedbackFilter), so one index per source-or-not serves every filter combination in the list's
// order, MongoDB merging the few value pairs, with publishedDate last for a date range.
feedbackSchema.index({ orgId: 1, status: 1, sentiment: 1, createdAt: -1, _id: -1, publishedDate: -1 });
feedbackSchema.index({ orgId: 1, source: 1, status: 1, sentiment: 1, createdAt: -1, _id: -1, publishedDate: -1 });
// Date ranges without the list's order: the partial days of a total, insights, topTerms (newest first);
// `_id` last for the insights' keyset pages (after a page's last publishedDate and _id).
feedbackSchema.index({ orgId: 1, status: 1, sentiment: 1, publishedDate: -1, _id: -1 });
feedbackSchema.index({ orgId: 1, source: 1, status: 1, sentiment: 1, publishedDate: -1, _id: -1 });
// A contact's feedback, newest first; a contact's or an account's newest item after a removal.
feedbackSchema.index({ orgId: 1, emailLower: 1, status: 1, sentiment: 1, createdAt: -1, _id: -1, publishedDate: -1 });
feedbackSchema.index({ orgId: 1, emailLower: 1, publishedDate: -1 });
feedbackSchema.index({ orgId: 1, emailDomain: 1, publishedDate: -1 });
// An organization's items in id order: the theme computation's newest items, the similarity index's
// pages, exports' keyset pages, the search indexer's reads after its watermark and a search's unindexed
// tail (search/).
feedbackSchema.index({ orgId: 1, _id: 1 });
// The sentiment backfill's keyset pages (items without one, in _id order).
feedbackSchema.index({ orgId: 1, sentiment: 1, _id: 1 });
// A theme's items in the list's order (feedbackItems(theme:)) and its examples.
feedbackSchema.index({ orgId: 1, themeIds: 1, status: 1, sentiment: 1, createdAt: -1, _id: -1 });

withChangeStamp(feedbackSchema);

export function feedbackModel(connection: Connection): Model<FeedbackDocument> {
  return connection.models.Feedback ?? connection.model<FeedbackDocument>('Feedback', feedbackSchema);
}
