import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

/** An email domain an organization claims; its people sign in through its connection once it is verified. */
export interface SsoDomain {
  orgId: string;
  domain: string;
  /** What the DNS TXT record must hold to prove the domain. */
  token: string;
  verifiedAt: Date | null;
  /** Password sign-in refused for the domain's people (owners excepted: the break-glass way in). */
  ssoRequired: boolean;
  createdAt: Date;
}

interface ClaimDocument extends Omit<SsoDomain, 'orgId' | 'domain'> {
  _id: string;
  orgId: string;
  domain: string;
}

/** The one organization a verified domain belongs to, under the domain itself. */
interface OwnerDocument {
  _id: string;
  orgId: string;
  at: Date;
}

const claimSchema = new Schema<ClaimDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true, index: true },
    domain: { type: String, required: true, index: true },
    token: { type: String, required: true },
    verifiedAt: { type: Date, default: null },
    ssoRequired: { type: Boolean, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'sso_domains', versionKey: false },
);

const ownerSchema = new Schema<OwnerDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'sso_domain_owners', versionKey: false },
);

const claimId = (orgId: string, domain: string) => `${orgId}|${domain}`;
const toDomain = ({ _id, ...rest }: ClaimDocument): SsoDomain => ({ ...rest, verifiedAt: rest.verifiedAt ?? null });

/**
 * Any organization may claim a domain (so nobody can squat one by claiming it first), but only one can
 * verify it: verifying inserts the domain's owner document under the domain as its `_id`, which exactly
 * one organization can do, on MongoDB and on the embedded FerretDB alike.
 */
export class SsoDomainRepository {
  private readonly claims: Model<ClaimDocument>;
  private readonly owners: Model<OwnerDocument>;

  constructor(connection: Connection) {
    this.claims = connection.models.SsoDomain ?? connection.model<ClaimDocument>('SsoDomain', claimSchema);
    this.owners = connection.models.SsoDomainOwner ?? connection.model<OwnerDocument>('SsoDomainOwner', ownerSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.claims);
  }

  /** The organization's claim, created with `token` when it has none yet. */
  async claim(orgId: string, domain: string, token: string, now: Date): Promise<SsoDomain> {
    await this.claims.updateOne(
      { _id: claimId(orgId, domain) },
      { $setOnInsert: { orgId, domain, token, verifiedAt: null, ssoRequired: false, createdAt: now } },
      { upsert: true },
    );
    const found = await this.find(orgId, domain);
    if (!found) throw new Error(`the claim of ${domain} vanished while it was made`);
    return found;
  }

  async find(orgId: string, domain: string): Promise<SsoDomain | null> {
    const doc = await this.claims.findById(claimId(orgId, domain)).lean<ClaimDocument>();
    return doc ? toDomain(doc) : null;
  }

  async list(orgId: string): Promise<SsoDomain[]> {
    const docs = await this.claims.find({ orgId }).sort({ domain: 1 }).lean<ClaimDocument[]>();
    return docs.map(toDomain);
  }

  /** The organizations that claim `domain`, verified or not (at most a few). */
  async claimantsOf(domain: string): Promise<string[]> {
    const docs = await this.claims.find({ domain }).limit(20).lean<ClaimDocument[]>();
    return docs.map((doc) => doc.orgId);
  }

  /** The organization that verified `domain`, if any. */
  async ownerOf(domain: string): Promise<string | null> {
    const doc = await this.owners.findById(domain).lean<OwnerDocument>();
    return doc?.orgId ?? null;
  }

  /** Makes the organization the domain's owner; false when another organization verified it first. */
  async verify(orgId: string, domain: string, now: Date): Promise<boolean> {
    try {
      await this.owners.create({ _id: domain, orgId, at: now });
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
      if ((await this.ownerOf(domain)) !== orgId) return false;
    }
    await this.claims.updateOne({ _id: claimId(orgId, domain), verifiedAt: null }, { $set: { verifiedAt: now } });
    return true;
  }

  async setRequired(orgId: string, domain: string, required: boolean): Promise<void> {
    await this.claims.updateOne({ _id: claimId(orgId, domain) }, { $set: { ssoRequired: required } });
  }

  async remove(orgId: string, domain: string): Promise<boolean> {
    await this.owners.deleteOne({ _id: domain, orgId });
    return (await this.claims.deleteOne({ _id: claimId(orgId, domain) })).deletedCount === 1;
  }
}
