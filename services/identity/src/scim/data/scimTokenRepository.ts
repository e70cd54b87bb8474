import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '@fi/shared/database';

/** A provisioning token of one organization as listed: never the secret, only its first characters. */
export interface ScimTokenRecord {
  id: string;
  orgId: string;
  name: string;
  hint: string;
  /** What the token may do: an owner's token manages owners too, an admin's everyone else (see docs). */
  role: 'owner' | 'admin';
  /** A member's email, or `cli` for an operator's command. */
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface ScimTokenDocument extends Omit<ScimTokenRecord, 'id'> {
  _id: string;
  hash: string;
}

const scimTokenSchema = new Schema<ScimTokenDocument>(
  {
    _id: { type: String, required: true },
    hash: { type: String, required: true, unique: true },
    orgId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    hint: { type: String, required: true },
    role: { type: String, required: true },
    createdBy: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'scim_tokens', versionKey: false },
);

const toRecord = ({ _id, hash: _hash, ...rest }: ScimTokenDocument): ScimTokenRecord => ({
  id: _id,
  ...rest,
  lastUsedAt: rest.lastUsedAt ?? null,
  revokedAt: rest.revokedAt ?? null,
});

export class ScimTokenRepository {
  private readonly model: Model<ScimTokenDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.ScimToken ?? connection.model<ScimTokenDocument>('ScimToken', scimTokenSchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /** Stores the token's hash only; the caller shows the token once. */
  async create(input: Omit<ScimTokenRecord, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>, hash: string) {
    const doc: ScimTokenDocument = {
      _id: `scim_${randomBytes(8).toString('hex')}`,
      hash,
      ...input,
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.model.create(doc);
    return toRecord(doc);
  }

  /** The stored hash comes back too, so the caller can compare it in constant time. */
  async findByHash(hash: string): Promise<{ record: ScimTokenRecord; hash: string } | null> {
    const doc = await this.model.findOne({ hash }).lean<ScimTokenDocument>();
    return doc ? { record: toRecord(doc), hash: doc.hash } : null;
  }

  async list(orgId: string): Promise<ScimTokenRecord[]> {
    const docs = await this.model.find({ orgId }).sort({ createdAt: 1 }).lean<ScimTokenDocument[]>();
    return docs.map(toRecord);
  }

  /** Null when no token of the organization has this id; a revoked token keeps its first revocation time. */
  async revoke(orgId: string, id: string): Promise<ScimTokenRecord | null> {
    await this.model.updateOne({ _id: id, orgId, revokedAt: null }, { $set: { revokedAt: new Date() } });
    const doc = await this.model.findOne({ _id: id, orgId }).lean<ScimTokenDocument>();
    return doc ? toRecord(doc) : null;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { lastUsedAt: at } });
  }
}
