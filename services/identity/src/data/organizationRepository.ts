import { Schema, type Connection, type Model } from 'mongoose';
import type { Tier } from '@fi/shared';

export interface Organization {
  id: string;
  name: string;
  tier: Tier;
  createdAt: Date;
}

interface OrganizationDocument extends Omit<Organization, 'id'> {
  _id: string;
}

const organizationSchema = new Schema<OrganizationDocument>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    tier: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'organizations', versionKey: false },
);

const toOrganization = ({ _id, ...rest }: OrganizationDocument): Organization => ({ id: _id, ...rest });

export class OrganizationRepository {
  private readonly model: Model<OrganizationDocument>;

  constructor(connection: Connection) {
    this.model =
      connection.models.Organization ?? connection.model<OrganizationDocument>('Organization', organizationSchema);
  }

  async findById(id: string): Promise<Organization | null> {
    const doc = await this.model.findById(id).lean<OrganizationDocument>();
    return doc ? toOrganization(doc) : null;
  }

  /** The organization, created with `defaults` when it does not exist yet; `created` says which. */
  async findOrCreate(
    id: string,
    defaults: { name: string; tier: Tier },
  ): Promise<{ organization: Organization; created: boolean }> {
    const result = await this.model.updateOne(
      { _id: id },
      { $setOnInsert: { name: defaults.name, tier: defaults.tier, createdAt: new Date() } },
      { upsert: true },
    );
    const organization = await this.findById(id);
    if (!organization) throw new Error(`organization ${id} vanished while it was created`);
    return { organization, created: result.upsertedCount === 1 };
  }
}
