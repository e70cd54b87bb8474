import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface AccountDocument {
  _id: Types.ObjectId;
  orgId: string;
  name: string;
  domain?: string;
  description?: string;
  website?: string;
  score?: number;
  churnRisk?: number;
  tags: string[];
  createdAt: Date;
}

const accountSchema = new Schema<AccountDocument>(
  {
    orgId: { type: String, required: true },
    name: { type: String, required: true },
    domain: String,
    description: String,
    website: String,
    score: { type: Number, min: 0, max: 1 },
    churnRisk: { type: Number, min: 0, max: 1 },
    tags: { type: [String], default: [] },
    createdAt: { type: Date, required: true },
  },
  { collection: 'accounts', versionKey: false },
);

accountSchema.index({ orgId: 1, createdAt: -1, _id: -1 });

export function accountModel(connection: Connection): Model<AccountDocument> {
  return connection.models.Account ?? connection.model<AccountDocument>('Account', accountSchema);
}
