import { Schema, type Connection, type Model } from 'mongoose';
import type { Role } from '@fi/shared';
import { buildIndexes } from '@fi/shared/database';

/**
 * What the identity provider knows of a person beyond membership, under the member's id: its own id for
 * them (`externalId`), the parts of their name, and whether they are active. A deactivated person is not
 * a member (nothing of theirs signs in); this record keeps who they were (email, name, role, creation
 * time) so the provider still reads them, inactive, and can make them active again under the same id.
 */
export interface ProvisionedUser {
  id: string;
  orgId: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  active: boolean;
  /** Kept while inactive; a member's own record holds them while active. */
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}

interface ProvisionedUserDocument extends Omit<ProvisionedUser, 'id'> {
  _id: string;
}

const provisionedUserSchema = new Schema<ProvisionedUserDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    externalId: { type: String, default: null },
    givenName: { type: String, default: null },
    familyName: { type: String, default: null },
    active: { type: Boolean, required: true },
    email: { type: String, required: true },
    name: { type: String, required: true },
    role: { type: String, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'provisioned_users', versionKey: false },
);
// The inactive people of an organization (a list's tail), and one looked up by email.
provisionedUserSchema.index({ orgId: 1, active: 1, createdAt: 1, _id: 1 });
provisionedUserSchema.index({ orgId: 1, email: 1 });
provisionedUserSchema.index({ orgId: 1, externalId: 1 });

const toUser = ({ _id, ...rest }: ProvisionedUserDocument): ProvisionedUser => ({
  id: _id,
  ...rest,
  externalId: rest.externalId ?? null,
  givenName: rest.givenName ?? null,
  familyName: rest.familyName ?? null,
});

export class ProvisionedUserRepository {
  private readonly model: Model<ProvisionedUserDocument>;

  constructor(connection: Connection) {
    this.model =
      connection.models.ProvisionedUser ??
      connection.model<ProvisionedUserDocument>('ProvisionedUser', provisionedUserSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  async findById(orgId: string, id: string): Promise<ProvisionedUser | null> {
    const doc = await this.model.findOne({ _id: id, orgId }).lean<ProvisionedUserDocument>();
    return doc ? toUser(doc) : null;
  }

  async findMany(orgId: string, ids: string[]): Promise<ProvisionedUser[]> {
    const docs = await this.model.find({ orgId, _id: { $in: ids } }).lean<ProvisionedUserDocument[]>();
    return docs.map(toUser);
  }

  async findInactiveByEmail(orgId: string, email: string): Promise<ProvisionedUser | null> {
    const doc = await this.model.findOne({ orgId, email, active: false }).lean<ProvisionedUserDocument>();
    return doc ? toUser(doc) : null;
  }

  async findByExternalId(orgId: string, externalId: string): Promise<ProvisionedUser | null> {
    const doc = await this.model.findOne({ orgId, externalId }).lean<ProvisionedUserDocument>();
    return doc ? toUser(doc) : null;
  }

  /** One page of the organization's inactive people, oldest first, and how many there are. */
  async pageInactive(orgId: string, skip: number, take: number): Promise<{ total: number; items: ProvisionedUser[] }> {
    const query = { orgId, active: false };
    const [total, docs] = await Promise.all([
      this.model.countDocuments(query),
      take === 0
        ? Promise.resolve([])
        : this.model
            .find(query)
            .sort({ createdAt: 1, _id: 1 })
            .skip(skip)
            .limit(take)
            .lean<ProvisionedUserDocument[]>(),
    ]);
    return { total, items: docs.map(toUser) };
  }

  async save(user: ProvisionedUser): Promise<void> {
    const { id, ...rest } = user;
    await this.model.replaceOne({ _id: id }, rest, { upsert: true });
  }

  async remove(orgId: string, id: string): Promise<void> {
    await this.model.deleteOne({ _id: id, orgId });
  }
}
