import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { withChangeStamp } from '@fi/shared/database';
import type { ContactRecord } from '../model/contact';

/** A contact as stored: its record, its id and organization, and the keys that link it. */
export interface ContactDocument extends ContactRecord {
  _id: Types.ObjectId;
  orgId: string;
  /** Match keys (see shared linkKeys): lower-cased email, its domain, and lower-cased company. */
  emailLower?: string | null;
  emailDomain?: string | null;
  companyKey?: string | null;
}

const contactSchema = new Schema<ContactDocument>(
  {
    orgId: { type: String, required: true },
    name: { type: String, required: true },
    email: String,
    phone: String,
    company: String,
    title: String,
    location: String,
    tags: { type: [String], default: [] },
    lastInteraction: Date,
    createdAt: { type: Date, required: true },
    emailLower: String,
    emailDomain: String,
    companyKey: String,
  },
  { collection: 'contacts', versionKey: false },
);

contactSchema.index({ orgId: 1, createdAt: -1, _id: -1 });
// Links: a feedback item finds its author (oldest first), an account its people (newest first).
contactSchema.index({ orgId: 1, emailLower: 1, createdAt: 1, _id: 1 });
contactSchema.index({ orgId: 1, emailDomain: 1, createdAt: -1, _id: -1 });
contactSchema.index({ orgId: 1, companyKey: 1, createdAt: -1, _id: -1 });

withChangeStamp(contactSchema);

export function contactModel(connection: Connection): Model<ContactDocument> {
  return connection.models.Contact ?? connection.model<ContactDocument>('Contact', contactSchema);
}
