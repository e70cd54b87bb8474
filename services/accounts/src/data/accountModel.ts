import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { withChangeStamp } from '@fi/shared/database';
import type { AccountRecord } from '../model/account';

/** An account as stored: its record, its id and organization, and the keys that link it. */
export interface AccountDocument extends AccountRecord {
  _id: Types.ObjectId;
  orgId: string;
  /** Match keys (see shared linkKeys): lower-cased domain and name. */
  domainKey?: string | null;
  nameKey?: string | null;
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
    domainKey: String,
    nameKey: String,
  },
  { collection: 'accounts', versionKey: false },
);

accountSchema.index({ orgId: 1, createdAt: -1, _id: -1 });
// Links: the oldest account with a domain or a name is the one people link to.
accountSchema.index({ orgId: 1, domainKey: 1, createdAt: 1, _id: 1 });
accountSchema.index({ orgId: 1, nameKey: 1, createdAt: 1, _id: 1 });

withChangeStamp(accountSchema);

export function accountModel(connection: Connection): Model<AccountDocument> {
  return connection.models.Account ?? connection.model<AccountDocument>('Account', accountSchema);
}
