import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

interface PolicyDocument {
  /** The organization's id. */
  _id: string;
  required: boolean;
  changedBy: string;
  changedAt: Date;
}

const policySchema = new Schema<PolicyDocument>(
  {
    _id: { type: String, required: true },
    required: { type: Boolean, required: true },
    changedBy: { type: String, required: true },
    changedAt: { type: Date, required: true },
  },
  { collection: 'two_factor_policies', versionKey: false },
);

/** Whether an organization requires two-factor sign-in of its members (set by an owner). */
export class TwoFactorPolicyRepository {
  private readonly model: Model<PolicyDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.TwoFactorPolicy ?? connection.model<PolicyDocument>('TwoFactorPolicy', policySchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async required(orgId: string): Promise<boolean> {
    const doc = await this.model.findById(orgId).lean<PolicyDocument>();
    return doc?.required ?? false;
  }

  async set(orgId: string, required: boolean, changedBy: string): Promise<void> {
    await this.model.replaceOne({ _id: orgId }, { required, changedBy, changedAt: new Date() }, { upsert: true });
  }
}
