import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { generateApiKey, hashApiKey } from '@fi/shared';
import { buildIndexes } from '@fi/shared/database';

/** What the identity service knows about a key; never the secret itself. */
export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  readOnly: boolean;
  /** Requests per minute granted to this key on request; null means the organization's tier limit. */
  rateLimitPerMinute: number | null;
  /** First characters of the key, to tell keys apart in listings. */
  hint: string;
  /** Who created it: a member's email, or `cli` for an operator's command. */
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface ApiKeyDocument extends Omit<ApiKeyRecord, 'id'> {
  _id: string;
  hash: string;
}

const apiKeySchema = new Schema<ApiKeyDocument>(
  {
    _id: { type: String, required: true },
    hash: { type: String, required: true, unique: true },
    orgId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    readOnly: { type: Boolean, required: true },
    rateLimitPerMinute: { type: Number, default: null },
    hint: { type: String, required: true },
    createdBy: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'api_keys', versionKey: false },
);

function toRecord(doc: ApiKeyDocument): ApiKeyRecord {
  return {
    id: doc._id,
    orgId: doc.orgId,
    name: doc.name,
    readOnly: doc.readOnly,
    rateLimitPerMinute: doc.rateLimitPerMinute ?? null,
    hint: doc.hint,
    createdBy: doc.createdBy,
    createdAt: doc.createdAt,
    lastUsedAt: doc.lastUsedAt ?? null,
    revokedAt: doc.revokedAt ?? null,
  };
}

export interface NewApiKey {
  orgId: string;
  name: string;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
  createdBy: string;
}

/** A key as it was stored before the identity service (the shared `auth` database), for the migration. */
export interface StoredApiKey {
  id: string;
  hash: string;
  orgId: string;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export class ApiKeyRepository {
  private readonly model: Model<ApiKeyDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.ApiKey ?? connection.model<ApiKeyDocument>('ApiKey', apiKeySchema);
  }

  ensureIndexes(): Promise<void> {
    return buildIndexes(this.model);
  }

  /** Returns the secret once; only its hash is stored. */
  async create(input: NewApiKey): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateApiKey();
    const doc: ApiKeyDocument = {
      _id: `key_${randomBytes(8).toString('hex')}`,
      hash: hashApiKey(key),
      ...input,
      hint: key.slice(0, 8),
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.model.create(doc);
    return { key, record: toRecord(doc) };
  }

  /** The stored hash comes back too, so the caller can compare it in constant time. */
  async findByHash(hash: string): Promise<{ record: ApiKeyRecord; hash: string } | null> {
    const doc = await this.model.findOne({ hash }).lean<ApiKeyDocument>();
    return doc ? { record: toRecord(doc), hash: doc.hash } : null;
  }

  async findById(id: string): Promise<ApiKeyRecord | null> {
    const doc = await this.model.findById(id).lean<ApiKeyDocument>();
    return doc ? toRecord(doc) : null;
  }

  async list(orgId: string): Promise<ApiKeyRecord[]> {
    const docs = await this.model.find({ orgId }).sort({ createdAt: 1 }).lean<ApiKeyDocument[]>();
    return docs.map(toRecord);
  }

  /** Null when no key of the organization has this id; an already revoked key keeps its first revocation time. */
  async revoke(orgId: string, id: string): Promise<ApiKeyRecord | null> {
    await this.model.updateOne({ _id: id, orgId, revokedAt: null }, { $set: { revokedAt: new Date() } });
    const doc = await this.model.findOne({ _id: id, orgId }).lean<ApiKeyDocument>();
    return doc ? toRecord(doc) : null;
  }

  async setRateLimit(id: string, rateLimitPerMinute: number | null): Promise<ApiKeyRecord | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id }, { $set: { rateLimitPerMinute } }, { new: true })
      .lean<ApiKeyDocument>();
    return doc ? toRecord(doc) : null;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { lastUsedAt: at } });
  }

  /** Inserts a key moved from the old store under its own id and hash; false when it was moved already. */
  async importStored(key: StoredApiKey): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: key.id },
      {
        $setOnInsert: {
          hash: key.hash,
          orgId: key.orgId,
          name: 'migrated',
          readOnly: key.readOnly,
          rateLimitPerMinute: key.rateLimitPerMinute,
          hint: key.hint,
          createdBy: 'migration',
          createdAt: key.createdAt,
          lastUsedAt: null,
          revokedAt: key.revokedAt,
        },
      },
      { upsert: true },
    );
    return result.upsertedCount === 1;
  }
}
