import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { buildIndexes } from '../data/buildIndexes';
import { generateApiKey, hashApiKey, type Tier } from './apiKey';

/** What the services know about a key; never the secret itself. */
export interface ApiKeyRecord {
  id: string;
  orgId: string;
  tier: Tier;
  readOnly: boolean;
  /** Requests per minute granted to this key on request; null means the tier's limit. */
  rateLimitPerMinute: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** First characters of the key, to tell keys apart in listings. */
  hint: string;
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
    tier: { type: String, required: true },
    readOnly: { type: Boolean, required: true },
    rateLimitPerMinute: { type: Number, default: null },
    createdAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    hint: { type: String, required: true },
  },
  { collection: 'api_keys', versionKey: false },
);

function toRecord(doc: ApiKeyDocument): ApiKeyRecord {
  return {
    id: doc._id,
    orgId: doc.orgId,
    tier: doc.tier,
    readOnly: doc.readOnly,
    rateLimitPerMinute: doc.rateLimitPerMinute ?? null,
    createdAt: doc.createdAt,
    revokedAt: doc.revokedAt ?? null,
    hint: doc.hint,
  };
}

export interface NewApiKey {
  orgId: string;
  tier: Tier;
  readOnly: boolean;
  rateLimitPerMinute?: number | null;
}

export class ApiKeyStore {
  private readonly model: Model<ApiKeyDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.ApiKey ?? connection.model<ApiKeyDocument>('ApiKey', apiKeySchema);
  }

  async ensureIndexes(): Promise<void> {
    await buildIndexes(this.model);
  }

  /** Returns the secret once; only its hash is stored. */
  async create(input: NewApiKey): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateApiKey();
    const doc: ApiKeyDocument = {
      _id: `key_${randomBytes(8).toString('hex')}`,
      hash: hashApiKey(key),
      orgId: input.orgId,
      tier: input.tier,
      readOnly: input.readOnly,
      rateLimitPerMinute: input.rateLimitPerMinute ?? null,
      createdAt: new Date(),
      revokedAt: null,
      hint: key.slice(0, 8),
    };
    await this.model.create(doc);
    return { key, record: toRecord(doc) };
  }

  /** The stored hash comes back too, so the caller can compare it in constant time. */
  async findByHash(hash: string): Promise<{ record: ApiKeyRecord; hash: string } | null> {
    const doc = await this.model.findOne({ hash }).lean<ApiKeyDocument>();
    return doc ? { record: toRecord(doc), hash: doc.hash } : null;
  }

  async list(orgId: string): Promise<ApiKeyRecord[]> {
    const docs = await this.model.find({ orgId }).sort({ createdAt: 1 }).lean<ApiKeyDocument[]>();
    return docs.map(toRecord);
  }

  /** Accepts the key itself or its listed id; returns the revoked record, or null when none matched. */
  async revoke(keyOrId: string): Promise<ApiKeyRecord | null> {
    const doc = await this.model
      .findOneAndUpdate(this.selector(keyOrId), { $set: { revokedAt: new Date() } }, { new: true })
      .lean<ApiKeyDocument>();
    return doc ? toRecord(doc) : null;
  }

  async setRateLimit(keyOrId: string, rateLimitPerMinute: number | null): Promise<ApiKeyRecord | null> {
    const doc = await this.model
      .findOneAndUpdate(this.selector(keyOrId), { $set: { rateLimitPerMinute } }, { new: true })
      .lean<ApiKeyDocument>();
    return doc ? toRecord(doc) : null;
  }

  private selector(keyOrId: string): { _id: string } | { hash: string } {
    return keyOrId.startsWith('key_') ? { _id: keyOrId } : { hash: hashApiKey(keyOrId) };
  }
}
