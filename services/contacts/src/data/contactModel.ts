import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface ContactDocument {
  _id: Types.ObjectId;
  orgId: string;
  name: string;
  email?: string;
  phone?: string;
  company?: string;
  title?: string;
  location?: string;
  tags: string[];
  lastInteraction?: Date;
  createdAt: Date;
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
  },
  { collection: 'contacts', versionKey: false },
);

contactSchema.index({ orgId: 1, createdAt: -1, _id: -1 });

export function contactModel(connection: Connection): Model<ContactDocument> {
  return connection.models.Contact ?? connection.model<ContactDocument>('Contact', contactSchema);
}
