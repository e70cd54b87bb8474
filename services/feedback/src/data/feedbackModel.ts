import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface FeedbackDocument {
  _id: Types.ObjectId;
  orgId: string;
  source: string;
  title: string;
  content: string;
  author?: string;
  email?: string;
  /** Lower-cased email, so contacts match their feedback case-insensitively through an index. */
  emailLower?: string;
  sentiment?: string;
  status: string;
  metadata?: Record<string, unknown>;
  publishedDate: Date;
  createdAt: Date;
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
    sentiment: String,
    status: { type: String, required: true },
    metadata: { type: Schema.Types.Mixed },
    publishedDate: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'feedback_items', versionKey: false, minimize: false },
);

// Every list is newest first within one organization; each filter combination has an index that also
// serves the sort, so a page never needs an in-memory sort.
feedbackSchema.index({ orgId: 1, createdAt: -1, _id: -1 });
feedbackSchema.index({ orgId: 1, status: 1, sentiment: 1, createdAt: -1, _id: -1 });
feedbackSchema.index({ orgId: 1, sentiment: 1, createdAt: -1, _id: -1 });
feedbackSchema.index({ orgId: 1, source: 1, status: 1, sentiment: 1, createdAt: -1, _id: -1 });
feedbackSchema.index({ orgId: 1, emailLower: 1, publishedDate: -1 });

export function feedbackModel(connection: Connection): Model<FeedbackDocument> {
  return connection.models.Feedback ?? connection.model<FeedbackDocument>('Feedback', feedbackSchema);
}
